import { fileURLToPath } from 'node:url';

/**
 * The Node flags that run this project's TypeScript, for the child
 * processes the tests start (the server, the CLI): Node's own type
 * transform with ts-resolve.mjs, as scripts/test.sh runs the test files.
 * With the compile cache scripts/test.sh sets, this takes a third off a
 * process's start-up against tsx (for the CLI, 1.2 s -> 0.8 s of CPU on Node
 * 24, 1.9 s -> 1.3 s on Node 22), which the CLI suites pay per command.
 */
export const RUN_TYPESCRIPT: readonly string[] = [
  '--experimental-transform-types',
  '--import',
  fileURLToPath(new URL('./ts-resolve.mjs', import.meta.url)),
];
