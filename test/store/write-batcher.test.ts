import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WriteBatcher } from '../../src/store/write-batcher.js';

// Pure logic: how writes are grouped, when callers hear back, and that the
// queue never holds more than its bound.

/** A write function that records each batch and finishes when told to. */
function recorder() {
  const batches: Array<Map<string, number>> = [];
  const finish: Array<(error?: Error) => void> = [];
  const write = (batch: Map<string, number>) =>
    new Promise<void>((resolve, reject) => {
      batches.push(batch);
      finish.push((error) => (error ? reject(error) : resolve()));
    });
  return { batches, finish, write };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('WriteBatcher', () => {
  it('sends the writes of one turn as one batch, the latest value per key, and settles callers after it', async () => {
    const { batches, finish, write } = recorder();
    const batcher = new WriteBatcher(write);
    let settled = 0;
    for (const [key, value] of [['a', 1], ['b', 2], ['a', 3]] as const) void batcher.add(key, value).then(() => settled++);
    assert.equal(batches.length, 0, 'nothing is sent within the turn');
    await turn();
    assert.deepEqual(batches.map((b) => [...b]), [[['b', 2], ['a', 3]]]);
    assert.equal(settled, 0, 'callers wait for the statement');
    finish[0]!();
    await turn();
    assert.equal(settled, 3);
  });

  it('queues what arrives while a batch is in flight and sends it when that one is done', async () => {
    const { batches, finish, write } = recorder();
    const batcher = new WriteBatcher(write);
    void batcher.add('a', 1);
    await turn();
    const later = [batcher.add('b', 2), batcher.add('c', 3)];
    await turn();
    assert.equal(batches.length, 1, 'one statement at a time while the queue has room');
    finish[0]!();
    await turn();
    assert.deepEqual(batches.map((b) => [...b.keys()]), [['a'], ['b', 'c']]);
    finish[1]!();
    await Promise.all(later);
  });

  it('a failed batch rejects every caller in it', async () => {
    const { finish, write } = recorder();
    const batcher = new WriteBatcher(write);
    const calls = [batcher.add('a', 1), batcher.add('b', 2)];
    await turn();
    finish[0]!(new Error('database gone'));
    for (const call of calls) await assert.rejects(call, /database gone/);
  });

  it('never holds more than maxBatch writes: a full queue is sent at once', async () => {
    const { batches, finish, write } = recorder();
    const batcher = new WriteBatcher(write, 3);
    const calls = Array.from({ length: 7 }, (_, i) => batcher.add(`k${i}`, i));
    assert.deepEqual(batches.map((b) => b.size), [3, 3], 'two full batches went out in the same turn');
    assert.equal(batcher.queued, 1);
    const closed = batcher.close();
    await turn();
    finish.forEach((f) => f());
    await turn();
    finish.forEach((f) => f());
    await closed;
    assert.deepEqual(batches.map((b) => b.size), [3, 3, 1]);
    await Promise.all(calls);
    assert.equal(batcher.queued, 0);
  });
});
