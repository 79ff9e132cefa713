import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';
import * as argon2 from '@node-rs/argon2';
import * as bcrypt from '@node-rs/bcrypt';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { assertError, uniqueEmail } from '../support/accounts.js';
import { djangoPbkdf2, importUser } from '../support/imported-users.js';

const PASSWORD = 'imported from django ✓';

// Hashes as Django writes them, built here with small costs for speed: the
// cost travels in the string, so the server must honour it.
const IMPORTED: Record<string, (password: string) => string> = {
  pbkdf2_sha256: djangoPbkdf2,
  'pbkdf2_sha1 (Django PBKDF2SHA1PasswordHasher)': (p) => `pbkdf2_sha1$2000$seasalt$${pbkdf2Sync(p, 'seasalt', 2000, 20, 'sha1').toString('base64')}`,
  'scrypt (Django ScryptPasswordHasher)': (p) => `scrypt$1024$seasalt$8$2$${scryptSync(p, 'seasalt', 64, { N: 1024, r: 8, p: 2 }).toString('base64')}`,
  'bcrypt (Django BCryptPasswordHasher)': (p) => `bcrypt$${bcrypt.hashSync(p, { cost: 4 })}`,
  'bcrypt_sha256 (Django BCryptSHA256PasswordHasher)': (p) => `bcrypt_sha256$${bcrypt.hashSync(createHash('sha256').update(p).digest('hex'), { cost: 4 })}`,
  'bare bcrypt $2b$': (p) => bcrypt.hashSync(p, { cost: 4 }),
  'argon2 (Django Argon2PasswordHasher)': (p) =>
    `argon2${argon2.hashSync(p, { algorithm: argon2.Algorithm.Argon2id, memoryCost: 1024, timeCost: 1, parallelism: 2 })}`,
  'argon2id with older parameters': (p) => argon2.hashSync(p, { algorithm: argon2.Algorithm.Argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 }),
};

async function storedHash(server: TestServer, userId: number): Promise<string | null> {
  const row = await server.app.deps.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow();
  return row.password_hash;
}

describeEachDatabase('imported password hashes', { ACCOUNT_EMAIL_VERIFICATION: 'mandatory' }, ({ server }) => {
  for (const [name, make] of Object.entries(IMPORTED)) {
    it(`${name}: logs in, refuses a wrong password, and is re-hashed to argon2id`, async () => {
      const email = uniqueEmail('imported');
      const original = make(PASSWORD);
      const userId = await importUser(server(), email, original);

      assertError(await server().client('app').post('/auth/login', { email, password: 'not the password' }), 400, 'email_password_mismatch', 'password');
      assert.equal(await storedHash(server(), userId), original, 'a failed login changes nothing');

      const login = await server().client('app').post('/auth/login', { email, password: PASSWORD });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      assert.equal(login.body.data.user.has_usable_password, true);
      const rehashed = await storedHash(server(), userId);
      assert.match(rehashed ?? '', /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

      const again = await server().client('app').post('/auth/login', { email, password: PASSWORD });
      assert.equal(again.status, 200);
      assert.equal(await storedHash(server(), userId), rehashed, 'a current hash is left alone');
    });
  }

  it("Django's unusable password cannot log in and shows as unusable", async () => {
    const email = uniqueEmail('unusable');
    await importUser(server(), email, `!${randomBytes(20).toString('hex')}`);
    assertError(await server().client('app').post('/auth/login', { email, password: PASSWORD }), 400, 'email_password_mismatch', 'password');
  });

  it('a pbkdf2 hash with a wrong digest length is refused, not a crash', async () => {
    const email = uniqueEmail('corrupt');
    await importUser(server(), email, 'pbkdf2_sha256$1000$salt$c2hvcnQ=');
    assertError(await server().client('app').post('/auth/login', { email, password: PASSWORD }), 400, 'email_password_mismatch', 'password');
  });
});
