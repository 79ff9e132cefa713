import { availableParallelism } from 'node:os';
import { hashPassword, verifyPassword } from '../src/security/passwords.js';

// What the password hash alone allows on this machine: verifications per
// second with every core busy, the ceiling for logins per second.
const seconds = Number(process.argv[2] ?? 5);
const hash = await hashPassword('bench password 123');
const parallel = availableParallelism() * 2;
let done = 0;
const deadline = Date.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    while (Date.now() < deadline) {
      await verifyPassword('bench password 123', hash);
      done++;
    }
  }),
);
process.stdout.write(`${JSON.stringify({ perSecond: done / seconds })}\n`);
