import { createLogger } from '../../src/observability/logger.js';

// A process that logs through the server's logger and then ends as the
// first argument says, for test/operations/log-buffer.test.ts.
const log = createLogger('info');
const mode = process.argv[2];
const lines = Number(process.argv[3] ?? 1000);
for (let i = 0; i < lines; i++) log.info({ i }, 'line');
if (mode === 'exit') process.exit(0);
if (mode === 'fatal') throw new Error('fatal after logging');
if (mode === 'idle') setTimeout(() => {}, 60_000); // stays up until the test kills it
