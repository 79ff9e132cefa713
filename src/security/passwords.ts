import { createHash, pbkdf2, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { promisify } from 'node:util';
import * as argon2 from '@node-rs/argon2';
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

// scrypt takes 128 * N * r bytes and time in proportion to N * r * p. Django's
// default (N=2^14, r=8, p=5) takes 16 MiB and N * r * p = 655360; the bounds
// allow 16 times that memory and about 50 times that work.
const MAX_SCRYPT_MEMORY_BYTES = 256 * 1024 * 1024;
const MAX_SCRYPT_WORK = 2 ** 25;

// The PHC parameter section of a hash made with ARGON2_OPTIONS: such a hash is
// current and within bounds without being parsed.
const CURRENT_ARGON2_PREFIX = `$argon2id$v=19$m=${ARGON2_OPTIONS.memoryCost},t=${ARGON2_OPTIONS.timeCost},p=${ARGON2_OPTIONS.parallelism}$`;

const REJECTED: PasswordVerdict = Object.freeze({ ok: false, needsRehash: false });

const pbkdf2Async = promisify(pbkdf2);
const scryptAsync = promisify<string, string, number, ScryptOptions, Buffer>(scrypt);

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

/**
 * Which hasher made a stored hash: Django's algorithm name for Django's
 * formats ("pbkdf2_sha256", "argon2", "bcrypt_sha256", "scrypt", ...), the
 * PHC identifier for bare argon2 strings (ours are "argon2id"), "bcrypt" for
 * bare bcrypt, "unusable" for Django's "!" marker, "none" without a password
 * and "unknown" for a format nothing here verifies.
 */
export function passwordScheme(stored: string | null): string {
  if (stored === null) return 'none';
  if (stored.startsWith('!')) return 'unusable';
  const phc = /^\$(argon2(?:id|i|d))\$/.exec(stored);
  if (phc) return phc[1]!;
  if (/^\$2[aby]\$/.test(stored)) return 'bcrypt';
  return djangoAlgorithm(stored) ?? 'unknown';
}

/** True for a hash made by hashPassword with today's parameters (nothing to re-hash). */
export function isCurrentPasswordHash(stored: string | null): boolean {
  return stored !== null && stored.startsWith(CURRENT_ARGON2_PREFIX);
}

type Check = (password: string, stored: string) => Promise<boolean>;

// Django's hashers, by the algorithm name their hashes start with: the
// default PASSWORD_HASHERS of Django 5 plus plain bcrypt.
const DJANGO_CHECKS: Record<string, Check> = {
  pbkdf2_sha256: (password, stored) => checkDjangoPbkdf2(password, stored, 'sha256'),
  pbkdf2_sha1: (password, stored) => checkDjangoPbkdf2(password, stored, 'sha1'),
  // Argon2PasswordHasher: "argon2" + a PHC string ("$argon2id$v=19$...").
  argon2: async (password, stored) => {
    const phc = stored.slice('argon2'.length);
    return argon2WithinBounds(phc) && argon2.verify(phc, password);
  },
  // BCryptSHA256PasswordHasher: bcrypt over the hex SHA-256 of the password,
  // which sidesteps bcrypt's 72-byte truncation.
  bcrypt_sha256: (password, stored) => checkBcrypt(sha256Hex(password), stored.slice('bcrypt_sha256$'.length)),
  bcrypt: (password, stored) => checkBcrypt(password, stored.slice('bcrypt$'.length)),
  scrypt: checkDjangoScrypt,
};

function djangoAlgorithm(stored: string): string | undefined {
  const end = stored.indexOf('$');
  const algorithm = end > 0 ? stored.slice(0, end) : '';
  return Object.hasOwn(DJANGO_CHECKS, algorithm) ? algorithm : undefined;
}

function pickCheck(password: string, stored: string): (() => Promise<PasswordVerdict>) | undefined {
  if (stored.startsWith('$argon2')) return () => checkOwnArgon2(password, stored);
  if (/^\$2[aby]\$/.test(stored)) return imported(() => checkBcrypt(password, stored));
  const algorithm = djangoAlgorithm(stored);
  if (algorithm === undefined) return undefined;
  const check = DJANGO_CHECKS[algorithm]!;
  return imported(() => check(password, stored));
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
  if (cost === null || Number(cost[1]) > MAX_BCRYPT_COST) return false;
  // Loaded on first use: only accounts imported with a bcrypt hash need it.
  const bcrypt = await import('@node-rs/bcrypt');
  return bcrypt.verify(password, hash);
}

// Django's PBKDF2PasswordHasher and PBKDF2SHA1PasswordHasher:
// "pbkdf2_<digest>$<iterations>$<salt>$<base64 key>", the key being PBKDF2-HMAC
// of the UTF-8 password and salt, as long as the digest (32 or 20 bytes).
const PBKDF2_KEYS = {
  // Standard base64 of 32 bytes is exactly 43 characters and one "="; of 20, 27 and one "=".
  sha256: { bytes: 32, encoded: /^[A-Za-z0-9+/]{43}=$/ },
  sha1: { bytes: 20, encoded: /^[A-Za-z0-9+/]{27}=$/ },
} as const;

async function checkDjangoPbkdf2(password: string, stored: string, digest: keyof typeof PBKDF2_KEYS): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 4) return false;
  const [, iterationsText, salt, encoded] = parts as [string, string, string, string];
  if (!/^[1-9][0-9]{0,7}$/.test(iterationsText) || salt === '') return false;
  const iterations = Number(iterationsText);
  const key = PBKDF2_KEYS[digest];
  if (iterations > MAX_PBKDF2_ITERATIONS || !key.encoded.test(encoded)) return false;
  const expected = Buffer.from(encoded, 'base64');
  const actual = await pbkdf2Async(password, salt, iterations, key.bytes, digest);
  return timingSafeEqual(actual, expected);
}

// Django's ScryptPasswordHasher: "scrypt$<N>$<salt>$<r>$<p>$<base64 key>", the
// key being 64 bytes of scrypt over the UTF-8 password and salt.
async function checkDjangoScrypt(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6) return false;
  const [, nText, salt, rText, pText, encoded] = parts as [string, string, string, string, string, string];
  if (![nText, rText, pText].every((t) => /^[1-9][0-9]{0,8}$/.test(t)) || salt === '') return false;
  const [N, r, p] = [Number(nText), Number(rText), Number(pText)];
  const memory = 128 * N * r;
  // scrypt itself requires N to be a power of two above 1.
  if (N < 2 || (N & (N - 1)) !== 0 || memory > MAX_SCRYPT_MEMORY_BYTES || N * r * p > MAX_SCRYPT_WORK) return false;
  // Standard base64 of 64 bytes is exactly 86 characters and "==".
  if (!/^[A-Za-z0-9+/]{86}==$/.test(encoded)) return false;
  const expected = Buffer.from(encoded, 'base64');
  // maxmem guards against a miscount above; Node refuses (an error, a mismatch) beyond it.
  const actual = await scryptAsync(password, salt, 64, { N, r, p, maxmem: 2 * memory });
  return timingSafeEqual(actual, expected);
}

function sha256Hex(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('hex');
}
