import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { hashPassword, verifyPassword } from '../src/security/passwords.js';

// What the password hash alone allows on this machine: verifications per
// second with every core busy, the ceiling for logins per second, and the
// CPU time each one takes.
const seconds = Number(process.argv[2] ?? 5);
const hash = await hashPassword('bench password 123');
const parallel = availableParallelism() * 2;
let done = 0;
let finished = 0;
const cpuBefore = process.cpuUsage();
const deadline = performance.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    while (performance.now() < deadline) {
      await verifyPassword('bench password 123', hash);
      finished++;
      // Counted like autocannon counts logins: a verification still running at
      // the deadline is not credited, though it ran (in part) inside the window.
      if (performance.now() <= deadline) done++;
    }
  }),
);
const cpu = process.cpuUsage(cpuBefore);
// µs of CPU (all threads) per verification, over every one that ran.
const cpuPerVerification = (cpu.user + cpu.system) / finished;
process.stdout.write(`${JSON.stringify({ perSecond: done / seconds, cpu: cpuPerVerification })}\n`);
