import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LookupBatcher } from '../../src/store/lookup-batcher.js';

// Pure logic: which lookups share a read, what each caller gets back, and
// that a failure reaches every caller of its batch.

/** A read function that records each batch and answers when told to. */
function recorder() {
  const batches: Array<{ keys: string[]; now: number }> = [];
  const answer: Array<(values: Map<string, string> | Error) => void> = [];
  const read = (keys: string[], now: number) =>
    new Promise<Map<string, string>>((resolve, reject) => {
      batches.push({ keys, now });
      answer.push((values) => (values instanceof Error ? reject(values) : resolve(values)));
    });
  return { batches, answer, read };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('LookupBatcher', () => {
  it('reads the keys of one turn together, once each, as of the earliest caller, and answers each caller its own', async () => {
    const { batches, answer, read } = recorder();
    const batcher = new LookupBatcher(read);
    const calls = [batcher.get('a', 30), batcher.get('b', 10), batcher.get('a', 20), batcher.get('c', 40)];
    assert.equal(batches.length, 0, 'nothing is read within the turn');
    await turn();
    assert.deepEqual(batches, [{ keys: ['a', 'b', 'c'], now: 10 }]);
    answer[0]!(new Map([['a', 'A'], ['b', 'B']]));
    assert.deepEqual(await Promise.all(calls), ['A', 'B', 'A', undefined]);
  });

  it('does not hold a batch back while another is in flight, and never mixes turns', async () => {
    const { batches, answer, read } = recorder();
    const batcher = new LookupBatcher(read);
    const first = batcher.get('a', 1);
    await turn();
    const second = batcher.get('a', 2);
    await turn();
    assert.deepEqual(batches, [{ keys: ['a'], now: 1 }, { keys: ['a'], now: 2 }], 'a later lookup reads again, after it asked');
    answer[1]!(new Map([['a', 'new']]));
    answer[0]!(new Map([['a', 'old']]));
    assert.equal(await first, 'old');
    assert.equal(await second, 'new');
  });

  it('sends a full batch at once', async () => {
    const { batches, read } = recorder();
    const batcher = new LookupBatcher(read, 2);
    void batcher.get('a', 1);
    assert.equal(batches.length, 0);
    void batcher.get('b', 1);
    assert.deepEqual(batches.map((b) => b.keys), [['a', 'b']], 'sent without waiting for the turn');
    void batcher.get('c', 1);
    await turn();
    assert.deepEqual(batches.map((b) => b.keys), [['a', 'b'], ['c']]);
  });

  it('a failed read rejects every caller of its batch, and the next batch reads again', async () => {
    const { answer, read } = recorder();
    const batcher = new LookupBatcher(read);
    const calls = [batcher.get('a', 1), batcher.get('b', 1), batcher.get('a', 1)];
    await turn();
    answer[0]!(new Error('database gone'));
    for (const call of calls) await assert.rejects(call, /database gone/);
    const again = batcher.get('a', 2);
    await turn();
    answer[1]!(new Map([['a', 'back']]));
    assert.equal(await again, 'back');
  });
});
