import assert from 'node:assert/strict';
import { createHash, pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import * as argon2 from '@node-rs/argon2';
import * as bcrypt from '@node-rs/bcrypt';
import { configurePasswordHashing, hashPassword, isCurrentPasswordHash, passwordScheme, verifyPassword } from '../../src/security/passwords.js';
import { Semaphore } from '../../src/security/semaphore.js';
import { assertSameTime } from '../support/timing.js';

const PASSWORD = 'correct horse battery staple ✓';

// Django's PBKDF2PasswordHasher.encode(), with a small iteration count for speed:
// the count travels in the string, so the verifier must honour it.
function djangoPbkdf2(password: string, salt: string, iterations: number): string {
  const key = pbkdf2Sync(password, salt, iterations, 32, 'sha256').toString('base64');
  return `pbkdf2_sha256$${iterations}$${salt}$${key}`;
}

// Django's ScryptPasswordHasher.encode(), with a small N for speed.
function djangoScrypt(password: string, salt: string, N = 1024, r = 8, p = 1): string {
  const key = scryptSync(password, salt, 64, { N, r, p }).toString('base64');
  return `scrypt$${N}$${salt}$${r}$${p}$${key}`;
}

// Fast argon2 parameters for building imported hashes in tests.
const CHEAP_ARGON2 = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

describe('hashPassword', () => {
  it('produces an argon2id PHC string with the OWASP parameters', async () => {
    const stored = await hashPassword(PASSWORD);
    assert.match(stored, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    assert.notEqual(await hashPassword(PASSWORD), stored, 'salted');
  });

  it('round-trips without asking for a rehash', async () => {
    const stored = await hashPassword(PASSWORD);
    assert.deepEqual(await verifyPassword(PASSWORD, stored), { ok: true, needsRehash: false });
    assert.deepEqual(await verifyPassword('wrong', stored), { ok: false, needsRehash: false });
  });
});

describe('verifyPassword', () => {
  it('asks for a rehash of argon2id with other parameters', async () => {
    const stored = await argon2.hash(PASSWORD, { ...CHEAP_ARGON2, algorithm: argon2.Algorithm.Argon2id });
    assert.deepEqual(await verifyPassword(PASSWORD, stored), { ok: true, needsRehash: true });
    assert.deepEqual(await verifyPassword('wrong', stored), { ok: false, needsRehash: false });
  });

  it('asks for a rehash of argon2i with the current costs', async () => {
    const stored = await argon2.hash(PASSWORD, {
      memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: argon2.Algorithm.Argon2i,
    });
    assert.deepEqual(await verifyPassword(PASSWORD, stored), { ok: true, needsRehash: true });
  });

  it('verifies Django pbkdf2_sha256 hashes', async () => {
    const stored = djangoPbkdf2(PASSWORD, 'seasalt0123456789ABCDEF', 1000);
    assert.deepEqual(await verifyPassword(PASSWORD, stored), { ok: true, needsRehash: true });
    assert.deepEqual(await verifyPassword('wrong', stored), { ok: false, needsRehash: false });
  });

  it('verifies pbkdf2_sha256 with a random Django-style salt', async () => {
    // Django's salts are 22 characters of [a-zA-Z0-9]; hex is a subset.
    const salt = randomBytes(11).toString('hex');
    assert.equal((await verifyPassword(PASSWORD, djangoPbkdf2(PASSWORD, salt, 1000))).ok, true);
  });

  it('verifies hashes made by Python/Django, not by us', async () => {
    // Django 3.2's own test vector; the key checked with Python's
    // hashlib.pbkdf2_hmac('sha256', 'lètmein'.encode(), b'seasalt', 260000).
    const pbkdf2 = 'pbkdf2_sha256$260000$seasalt$YlZ2Vggtqdc61YjArZuoApoBh9JNGYoDRBUGu6tcJQo=';
    assert.deepEqual(await verifyPassword('lètmein', pbkdf2), { ok: true, needsRehash: true });
    assert.equal((await verifyPassword('lètmeinz', pbkdf2)).ok, false);
    // Made by Django's `manage.py changepassword` with BCryptSHA256PasswordHasher.
    const bcryptSha256 = 'bcrypt_sha256$$2b$12$c6T/4vpvrWs5NhmfIst8O.od24KswgzMu/9Uf1UXHKt2tHuit118i';
    assert.deepEqual(await verifyPassword('secretdbpass', bcryptSha256), { ok: true, needsRehash: true });
  });

  it('verifies Django argon2 hashes', async () => {
    const phc = await argon2.hash(PASSWORD, { ...CHEAP_ARGON2, algorithm: argon2.Algorithm.Argon2id });
    const stored = `argon2${phc}`;
    assert.match(stored, /^argon2\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    assert.deepEqual(await verifyPassword(PASSWORD, stored), { ok: true, needsRehash: true });
    assert.deepEqual(await verifyPassword('wrong', stored), { ok: false, needsRehash: false });
  });

  it('asks for a rehash of a Django argon2 hash even with the current parameters', async () => {
    const stored = `argon2${await hashPassword(PASSWORD)}`;
    assert.deepEqual(await verifyPassword(PASSWORD, stored), { ok: true, needsRehash: true });
  });

  it('verifies Django bcrypt_sha256 hashes', async () => {
    const digest = createHash('sha256').update(PASSWORD).digest('hex');
    const stored = `bcrypt_sha256$${await bcrypt.hash(digest, { cost: 4 })}`;
    assert.match(stored, /^bcrypt_sha256\$\$2b\$04\$/);
    assert.deepEqual(await verifyPassword(PASSWORD, stored), { ok: true, needsRehash: true });
    assert.deepEqual(await verifyPassword('wrong', stored), { ok: false, needsRehash: false });
  });

  it('does not take a bcrypt_sha256 hash as plain bcrypt', async () => {
    const stored = `bcrypt_sha256$${await bcrypt.hash(PASSWORD, { cost: 4 })}`;
    assert.deepEqual(await verifyPassword(PASSWORD, stored), { ok: false, needsRehash: false });
  });

  it('verifies Django bcrypt and bare bcrypt hashes', async () => {
    for (const version of ['2a', '2b', '2y'] as const) {
      const bare = await bcrypt.hash(PASSWORD, { cost: 4, version });
      for (const stored of [bare, `bcrypt$${bare}`]) {
        assert.deepEqual(await verifyPassword(PASSWORD, stored), { ok: true, needsRehash: true }, stored);
        assert.deepEqual(await verifyPassword('wrong', stored), { ok: false, needsRehash: false }, stored);
      }
    }
  });

  it('verifies Django pbkdf2_sha1 hashes', async () => {
    const key = pbkdf2Sync(PASSWORD, 'seasalt', 1000, 20, 'sha1').toString('base64');
    const stored = `pbkdf2_sha1$1000$seasalt$${key}`;
    assert.deepEqual(await verifyPassword(PASSWORD, stored), { ok: true, needsRehash: true });
    assert.deepEqual(await verifyPassword('wrong', stored), { ok: false, needsRehash: false });
    // The same key under the other digest's name is a different hash.
    assert.equal((await verifyPassword(PASSWORD, `pbkdf2_sha256$1000$seasalt$${key}`)).ok, false);
  });

  it('verifies Django scrypt hashes, with the costs the hash states', async () => {
    for (const [N, r, p] of [[1024, 8, 1], [2048, 4, 3]] as const) {
      const stored = djangoScrypt(PASSWORD, 'JG5wmuYj7qDFXrlKPlM12R', N, r, p);
      assert.deepEqual(await verifyPassword(PASSWORD, stored), { ok: true, needsRehash: true }, stored);
      assert.deepEqual(await verifyPassword('wrong', stored), { ok: false, needsRehash: false }, stored);
    }
    // Made by Django 5.2's ScryptPasswordHasher (N=2^14, r=8, p=5), from the allauth fixture.
    const django = 'scrypt$16384$JG5wmuYj7qDFXrlKPlM12R$8$5$iV/MdJGv7SV3+SIM4AdSd3libjME03j96zrLxzjJw8bKcflRQB4NQdZcc+zdfohkhGOAaDw8+tRy4rx3yibcSg==';
    assert.deepEqual(await verifyPassword('Kim-pass-12!', django), { ok: true, needsRehash: true });
    assert.equal((await verifyPassword('Kim-pass-12?', django)).ok, false);
  });

  it('names the scheme of each stored hash', async () => {
    const own = await hashPassword(PASSWORD);
    const cases: Array<[string | null, string]> = [
      [own, 'argon2id'],
      [await argon2.hash(PASSWORD, { ...CHEAP_ARGON2, algorithm: argon2.Algorithm.Argon2i }), 'argon2i'],
      [djangoPbkdf2(PASSWORD, 'salt', 1000), 'pbkdf2_sha256'],
      [`pbkdf2_sha1$1000$salt$${'A'.repeat(27)}=`, 'pbkdf2_sha1'],
      [`argon2${own}`, 'argon2'],
      [`bcrypt_sha256$$2b$12$${'a'.repeat(53)}`, 'bcrypt_sha256'],
      [`bcrypt$$2b$12$${'a'.repeat(53)}`, 'bcrypt'],
      [`$2b$12$${'a'.repeat(53)}`, 'bcrypt'],
      [djangoScrypt(PASSWORD, 'salt'), 'scrypt'],
      ['!Xk3jOqz8Vw2mN4pQ7rT1yU5iO9aS6dF3gH8jK0lZ', 'unusable'],
      [null, 'none'],
      ['md5$salt$5f4dcc3b5aa765d61d8327deb882cf99', 'unknown'],
      ['5f4dcc3b5aa765d61d8327deb882cf99', 'unknown'],
      ['$pbkdf2_sha256', 'unknown'],
      ['toString$1$2$3', 'unknown'],
    ];
    for (const [stored, scheme] of cases) assert.equal(passwordScheme(stored), scheme, String(stored));
    assert.equal(isCurrentPasswordHash(own), true);
    assert.equal(isCurrentPasswordHash(cases[1]![0]), false);
    assert.equal(isCurrentPasswordHash(null), false);
  });

  it('rejects null, unusable and malformed hashes without throwing', async () => {
    const good = djangoPbkdf2(PASSWORD, 'salt', 1000);
    const own = await hashPassword(PASSWORD);
    const inputs = [
      null,
      '',
      '!',
      '!Xk3jOqz8Vw2mN4pQ7rT1yU5iO9aS6dF3gH8jK0lZ', // Django's unusable password
      `!${own}`,
      'md5$salt$5f4dcc3b5aa765d61d8327deb882cf99',
      'pbkdf2_sha256$1000$salt',
      'pbkdf2_sha256$abc$salt$AAAA',
      'pbkdf2_sha256$0$salt$' + good.split('$')[3],
      'pbkdf2_sha256$1000$$' + good.split('$')[3],
      'pbkdf2_sha256$1000$salt$not-base64!',
      'pbkdf2_sha256$1000$salt$' + Buffer.alloc(16).toString('base64'),
      'pbkdf2_sha256$99999999999$salt$' + good.split('$')[3],
      good + '$extra',
      '$argon2id$garbage',
      '$argon2id$v=19$m=19456,t=2,p=1$AAAA$BBBB',
      own.slice(0, -10),
      'argon2$',
      'argon2$argon2id$v=19$m=1,t=1,p=1$$',
      'bcrypt$',
      'bcrypt$$2b$12$tooshort',
      'bcrypt_sha256$$2b$99$' + 'a'.repeat(53),
      '$2b$',
      '$2x$04$abcdefghijklmnopqrstuuJ3iZ0iT7kZ9nJYkXw5G2qXk8yVbN7mS',
      'pbkdf2_sha1$1000$salt$' + good.split('$')[3],
      'scrypt$1024$salt$8$1',
      djangoScrypt(PASSWORD, 'salt').replace('scrypt$1024$', 'scrypt$1000$'),
      djangoScrypt(PASSWORD, 'salt').replace('scrypt$1024$', 'scrypt$1$'),
      djangoScrypt(PASSWORD, 'salt').replace('scrypt$1024$salt$', 'scrypt$1024$$'),
      djangoScrypt(PASSWORD, 'salt').replace('scrypt$1024$salt$8$1$', 'scrypt$1024$salt$8$0$'),
      djangoScrypt(PASSWORD, 'salt').slice(0, -4),
      'toString$1$2$3',
      'constructor$',
    ];
    for (const stored of inputs) {
      assert.deepEqual(await verifyPassword(PASSWORD, stored), { ok: false, needsRehash: false }, String(stored));
    }
    // Sanity: the well-formed one does verify, so the rejections above are about form.
    assert.equal((await verifyPassword(PASSWORD, good)).ok, true);
  });

  // Run as stated, these would ask for about a terabyte of memory or hours of
  // CPU: the process would die or the test time out, so only the refusal passes.
  it('refuses hashes whose stated cost is out of bounds, without running them', { timeout: 30_000 }, async () => {
    const argon = await argon2.hash(PASSWORD, { ...CHEAP_ARGON2, algorithm: argon2.Algorithm.Argon2id });
    const costly = [
      argon.replace('m=1024,', 'm=999999999,'),
      argon.replace(',t=1,', ',t=100000,'),
      `argon2${argon.replace('m=1024,', 'm=999999999,')}`,
    ];
    const blowfish = await bcrypt.hash(PASSWORD, { cost: 4, version: '2b' });
    for (const stored of [blowfish, `bcrypt$${blowfish}`]) costly.push(stored.replace('$2b$04$', '$2b$31$'));
    costly.push(`bcrypt_sha256$${(await bcrypt.hash(createHash('sha256').update(PASSWORD).digest('hex'), { cost: 4 })).replace('$04$', '$31$')}`);
    // scrypt: 2^30 * 8 * 128 bytes is a terabyte; N=2^20 with p=64 is hours of work.
    const scrypted = djangoScrypt(PASSWORD, 'salt');
    costly.push(scrypted.replace('scrypt$1024$', `scrypt$${2 ** 30}$`));
    costly.push(scrypted.replace('scrypt$1024$salt$8$1$', `scrypt$${2 ** 18}$salt$8$64$`));
    for (const stored of costly) {
      assert.deepEqual(await verifyPassword(PASSWORD, stored), { ok: false, needsRehash: false }, stored);
    }
  });

  it('takes as long for a missing hash as for a wrong password', async (t) => {
    // Interleaved and judged by a bootstrap interval of the same runs (test/support/timing.ts):
    // five samples and a factor of three failed under a load of 19.
    const stored = await hashPassword(PASSWORD);
    for (const other of [null, '!unusable']) {
      await assertSameTime(t, 40, () => verifyPassword('wrong', stored), () => verifyPassword('wrong', other), { label: `${String(other)}: ` });
    }
  });
});

describe('hashing concurrency cap', () => {
  it('rejects a nonsensical limit', () => {
    assert.throws(() => configurePasswordHashing({ maxConcurrent: 0 }), RangeError);
    assert.throws(() => configurePasswordHashing({ maxConcurrent: 1.5 }), RangeError);
  });

  it('still hashes with a limit of one', async () => {
    configurePasswordHashing({ maxConcurrent: 1 });
    try {
      const stored = djangoPbkdf2(PASSWORD, 'salt', 1000);
      const results = await Promise.all([1, 2, 3].map(() => verifyPassword(PASSWORD, stored)));
      assert.ok(results.every((r) => r.ok));
    } finally {
      configurePasswordHashing({ maxConcurrent: 4 });
    }
  });
});

describe('Semaphore', () => {
  // A task that stays running until released from outside.
  function gate() {
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    return { done, release };
  }
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('runs at most `limit` tasks at once, in arrival order', async () => {
    const semaphore = new Semaphore(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) => semaphore.run(async () => {
      started.push(i);
      await g.done;
      return i;
    }));
    await tick();
    assert.deepEqual(started, [0, 1]);
    gates[1]!.release();
    await tick();
    assert.deepEqual(started, [0, 1, 2]);
    gates[0]!.release();
    gates[2]!.release();
    gates[3]!.release();
    assert.deepEqual(await Promise.all(runs), [0, 1, 2, 3]);
  });

  it('frees the slot when a task fails', async () => {
    const semaphore = new Semaphore(1);
    await assert.rejects(semaphore.run(() => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(await semaphore.run(async () => 'next'), 'next');
  });

  it('admits waiters when the limit is raised, and none above a lowered limit', async () => {
    const semaphore = new Semaphore(1);
    const gates = [gate(), gate(), gate()];
    let running = 0;
    let peak = 0;
    const runs = gates.map((g) => semaphore.run(async () => {
      running++;
      peak = Math.max(peak, running);
      await g.done;
      running--;
    }));
    await tick();
    assert.equal(running, 1);
    semaphore.setLimit(3);
    await tick();
    assert.equal(running, 3);
    semaphore.setLimit(1);
    const late = semaphore.run(async () => running);
    gates[0]!.release();
    gates[1]!.release();
    await tick();
    gates[2]!.release();
    await Promise.all(runs);
    assert.equal(await late, 0, 'the late task ran alone');
    assert.equal(peak, 3);
  });
});
