import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { EXACT_LIMIT, MemoryCounter } from '../../src/security/memory-counter.js';

// The in-process rate-limit counters hold a fixed budget whatever the number
// of subjects: a flood of distinct keys leaves memory flat, and the subjects
// beyond the exact table are counted by a sketch that never counts low.

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMiB = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

const RULE = { amount: 5, periodSeconds: 60, per: 'key' } as const;
const FLOOD = 1_000_000;

function counterAt(start: number) {
  const clock = { now: start };
  return { clock, counter: new MemoryCounter(RULE, () => clock.now) };
}

/** Hits `subject` until refused; answers how many hits passed. */
async function passesOf(counter: MemoryCounter, subject: string): Promise<number> {
  for (let passed = 0; passed <= RULE.amount + 1; passed++) {
    if ((await counter.hit(subject, 1)) !== null) return passed;
  }
  return Infinity;
}

describe('MemoryCounter', () => {
  it(`a flood of ${FLOOD} distinct subjects leaves memory flat and the exact table at its bound`, async () => {
    const { counter } = counterAt(1_000_000);
    const before = heapMiB();
    let largest = 0;
    for (let i = 0; i < FLOOD; i++) {
      await counter.hit(`flood-${i}`, 1);
      if (counter.exactSubjects > largest) largest = counter.exactSubjects;
    }
    const grown = heapMiB() - before;
    assert.equal(largest, EXACT_LIMIT);
    // The exact table (10,000 windows) and the sketch (two 256 KiB arrays) come to a few MiB; a map of every subject would take over a hundred.
    assert.ok(grown < 16, `heap grew by ${grown.toFixed(1)} MiB`);
  });

  it('subjects beyond the table are never let through more often than the rule allows', async () => {
    const { counter } = counterAt(1_000_000);
    for (let i = 0; i < EXACT_LIMIT; i++) await counter.hit(`early-${i}`, 1);
    // The table is full: these go to the sketch, which may refuse early but never late.
    for (let i = 0; i < 2000; i++) assert.ok((await passesOf(counter, `late-${i}`)) <= RULE.amount);
    // A subject already in the table is still counted exactly.
    assert.equal(await passesOf(counter, 'early-7'), RULE.amount - 1);
  });

  it('a quiet sketch counts exactly: with few subjects in it, each gets its full allowance', async () => {
    const { counter } = counterAt(1_000_000);
    for (let i = 0; i < EXACT_LIMIT; i++) await counter.hit(`early-${i}`, 1);
    let exact = 0;
    for (let i = 0; i < 100; i++) if ((await passesOf(counter, `late-${i}`)) === RULE.amount) exact++;
    assert.ok(exact >= 95, `${exact} of 100 subjects got their allowance`);
  });

  it('once the period is over the flood is forgotten: new subjects are counted exactly again', async () => {
    const { clock, counter } = counterAt(1_000_000);
    for (let i = 0; i < EXACT_LIMIT + 5000; i++) await counter.hit(`flood-${i}`, RULE.amount + 1);
    assert.equal(counter.exactSubjects, EXACT_LIMIT);
    // Two periods: the table's windows and both of the sketch's periods have passed.
    clock.now += 2 * RULE.periodSeconds * 1000;
    assert.equal(await passesOf(counter, 'flood-10003'), RULE.amount);
    assert.equal(await passesOf(counter, 'newcomer'), RULE.amount);
    assert.equal(counter.exactSubjects, 2);
  });

  it('refunds and clears reach subjects in the table', async () => {
    const { counter } = counterAt(1_000_000);
    for (let i = 0; i < RULE.amount; i++) await counter.hit('someone', 1);
    await counter.refund('someone');
    assert.equal(await counter.hit('someone', 1), null);
    assert.notEqual(await counter.hit('someone', 1), null);
    await counter.delete('someone');
    assert.equal(await passesOf(counter, 'someone'), RULE.amount);
  });
});
