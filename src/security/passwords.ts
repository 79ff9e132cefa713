import { createHash, pbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import * as argon2 from '@node-rs/argon2';
import * as bcrypt from '@node-rs/bcrypt';
import { Semaphore } from './semaphore.js';

export interface PasswordVerdict {
  ok: boolean;
  // True when the password matched but the stored hash is not an argon2id hash with
  // the current parameters: the caller should store hashPassword(password) instead.
  needsRehash: boolean;
}

// OWASP Password Storage Cheat Sheet, argon2id: m=19 MiB, t=2, p=1.
const ARGON2_OPTIONS = {
  algorithm: argon2.Algorithm.Argon2id,
  version: argon2.Version.V0x13,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

// A hash of a throwaway password with ARGON2_OPTIONS. Verifying against it when there
// is no usable hash makes an unknown user cost the same as a wrong password, so
// response time does not reveal which accounts exist.
const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$gQ3d61qY+Zyr+z6W/4fDyg$W+GLNHdAiEGfk1vvfAA/penBdHW931oM25Lkfs5Tz0o';

// A corrupt or hostile imported row must not pin a thread for minutes; Django's own
// default is around a million iterations.
const MAX_PBKDF2_ITERATIONS = 10_000_000;

// An argon2 hash names its own cost, so such a row could also claim terabytes
// of memory (and take the process down). The bounds are far above Django's
// defaults (m=100 MiB, t=2, p=8).
const MAX_ARGON2_MEMORY_KIB = 1024 * 1024;
const MAX_ARGON2_TIME_COST = 64;
const MAX_ARGON2_PARALLELISM = 64;

// bcrypt's cost is a power of two: 16 takes seconds per verification, Django's
// default is 12.
const MAX_BCRYPT_COST = 16;

// The PHC parameter section of a hash made with ARGON2_OPTIONS: such a hash is
// current and within bounds without being parsed.
const CURRENT_ARGON2_PREFIX = `$argon2id$v=19$m=${ARGON2_OPTIONS.memoryCost},t=${ARGON2_OPTIONS.timeCost},p=${ARGON2_OPTIONS.parallelism}$`;

const REJECTED: PasswordVerdict = Object.freeze({ ok: false, needsRehash: false });

const pbkdf2Async = promisify(pbkdf2);

// argon2, bcrypt and pbkdf2 all run on libuv's threadpool (4 threads by default),
// which fs and dns share. Without a cap a burst of logins fills that queue and stalls
// every file read behind seconds of hashing; with it the excess waits here instead.
// The default leaves one of the 4 threads free; more slots than cores keep the
// cores busy while the event loop hands a finished slot to the next login.
const DEFAULT_HASHING_CONCURRENCY = 3;
const hashingSlots = new Semaphore(DEFAULT_HASHING_CONCURRENCY);

export function configurePasswordHashing(options: { maxConcurrent: number }): void {
  hashingSlots.setLimit(options.maxConcurrent);
}

/** Hashes and verifications holding a slot, and those waiting for one (for metrics). */
export function passwordHashingLoad(): { running: number; queued: number } {
  return { running: hashingSlots.running, queued: hashingSlots.queued };
}

/**
 * Passwords this server stores are hashed in NFKC form, so the same text
 * verifies however a keyboard or system composed it (a precomposed or a
 * decomposed accent, full-width letters). Imported hashes were made by
 * Django from the text as typed, and are checked against it unchanged.
 */
export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

export function hashPassword(password: string): Promise<string> {
  return hashingSlots.run(() => argon2.hash(normalizePassword(password), ARGON2_OPTIONS));
}

// Never throws: anything malformed is a failed verification.
export async function verifyPassword(password: string, stored: string | null): Promise<PasswordVerdict> {
  // null, Django's unusable passwords ("!" + random text) and unknown formats all
  // land here.
  const check = stored === null ? undefined : pickCheck(password, stored);
  if (check === undefined) {
    await hashingSlots.run(() => argon2.verify(DUMMY_HASH, normalizePassword(password))).catch(() => false);
    return REJECTED;
  }
  try {
    return await hashingSlots.run(check);
  } catch {
    return REJECTED;
  }
}

function pickCheck(password: string, stored: string): (() => Promise<PasswordVerdict>) | undefined {
  if (stored.startsWith('$argon2')) return () => checkOwnArgon2(password, stored);
  // Django's Argon2PasswordHasher: "argon2" + a PHC string ("$argon2id$v=19$...").
  if (stored.startsWith('argon2$')) {
    const phc = stored.slice('argon2'.length);
    return imported(async () => argon2WithinBounds(phc) && argon2.verify(phc, password));
  }
  if (stored.startsWith('pbkdf2_sha256$')) return imported(() => checkDjangoPbkdf2(password, stored));
  // Django's BCryptSHA256PasswordHasher: bcrypt over the hex SHA-256 of the password,
  // which sidesteps bcrypt's 72-byte truncation.
  if (stored.startsWith('bcrypt_sha256$')) {
    return imported(() => checkBcrypt(sha256Hex(password), stored.slice('bcrypt_sha256$'.length)));
  }
  if (stored.startsWith('bcrypt$')) return imported(() => checkBcrypt(password, stored.slice('bcrypt$'.length)));
  if (/^\$2[aby]\$/.test(stored)) return imported(() => checkBcrypt(password, stored));
  return undefined;
}

// Any imported hash that matches is replaced by our own format on this login.
function imported(check: () => Promise<boolean>): () => Promise<PasswordVerdict> {
  return async () => ((await check()) ? { ok: true, needsRehash: true } : REJECTED);
}

async function checkOwnArgon2(password: string, stored: string): Promise<PasswordVerdict> {
  const current = stored.startsWith(CURRENT_ARGON2_PREFIX);
  if (!current && !argon2WithinBounds(stored)) return REJECTED;
  if (!(await argon2.verify(stored, normalizePassword(password)))) return REJECTED;
  return { ok: true, needsRehash: !current };
}

// Throws on a hash it cannot parse, which the caller counts as a mismatch.
function argon2WithinBounds(phc: string): boolean {
  const params = argon2.parseOptions(phc);
  return params.memoryCost <= MAX_ARGON2_MEMORY_KIB && params.timeCost <= MAX_ARGON2_TIME_COST && params.parallelism <= MAX_ARGON2_PARALLELISM;
}

async function checkBcrypt(password: string, hash: string): Promise<boolean> {
  const cost = /^\$2[aby]\$(\d\d)\$/.exec(hash);
  return cost !== null && Number(cost[1]) <= MAX_BCRYPT_COST && bcrypt.verify(password, hash);
}

// Django's PBKDF2PasswordHasher: "pbkdf2_sha256$<iterations>$<salt>$<base64 key>",
// the key being PBKDF2-HMAC-SHA256 of the UTF-8 password and salt, 32 bytes.
async function checkDjangoPbkdf2(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 4) return false;
  const [, iterationsText, salt, encoded] = parts as [string, string, string, string];
  if (!/^[1-9][0-9]{0,7}$/.test(iterationsText) || salt === '') return false;
  const iterations = Number(iterationsText);
  // Standard base64 of 32 bytes is exactly 43 characters and one "=".
  if (iterations > MAX_PBKDF2_ITERATIONS || !/^[A-Za-z0-9+/]{43}=$/.test(encoded)) return false;
  const expected = Buffer.from(encoded, 'base64');
  const actual = await pbkdf2Async(password, salt, iterations, 32, 'sha256');
  return timingSafeEqual(actual, expected);
}

function sha256Hex(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('hex');
}
