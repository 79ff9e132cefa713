import { createPrivateKey } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, readBool, readInt, readOptional, readString, type Env } from './env.js';
import { readSecretList } from './secret-keys.js';

// App-client token settings under the reference's names (HEADLESS_TOKEN_STRATEGY,
// HEADLESS_JWT_*), plus the reuse grace window this service adds.

export type JwtAlgorithm = 'HS256' | 'HS512' | 'RS256' | 'RS512';
const ALGORITHMS: readonly JwtAlgorithm[] = ['HS256', 'HS512', 'RS256', 'RS512'];

export type TokenStrategySetting = { kind: 'session' } | { kind: 'jwt' } | { kind: 'module'; path: string };

export interface JwtSettings {
  algorithm: JwtAlgorithm;
  /** PEM for RS*, a shared secret for HS*; HS* falls back to SECRET_KEY. Never logged. */
  privateKey: string | undefined;
  /** HEADLESS_JWT_PRIVATE_KEY_FALLBACKS: older keys that still verify (and stay in the JWKS), never sign. */
  privateKeyFallbacks: string[];
  accessTokenExpiresIn: number;
  refreshTokenExpiresIn: number;
  authorizationHeaderScheme: string;
  statefulValidation: boolean;
  rotateRefreshToken: boolean;
  /** Seconds a rotated refresh token may be presented again for the same successor; 0 = off. */
  refreshTokenReuseGrace: number;
  /** Stateless mode: seconds a bearer's session snapshot is reused before it is read again. */
  statelessSnapshotSeconds: number;
}

export interface TokenSettings {
  strategy: TokenStrategySetting;
  jwt: JwtSettings;
}

// The reference's class paths are accepted too, so a settings file can be carried over.
const SESSION_NAMES = new Set(['session', 'sessions', 'allauth.headless.tokens.sessions.SessionTokenStrategy', 'allauth.headless.tokens.strategies.sessions.SessionTokenStrategy']);
const JWT_NAMES = new Set(['jwt', 'allauth.headless.tokens.strategies.jwt.JWTTokenStrategy']);

function readStrategy(env: Env): TokenStrategySetting {
  const raw = readString(env, 'HEADLESS_TOKEN_STRATEGY', 'session').trim();
  if (SESSION_NAMES.has(raw.toLowerCase()) || SESSION_NAMES.has(raw)) return { kind: 'session' };
  if (JWT_NAMES.has(raw.toLowerCase()) || JWT_NAMES.has(raw)) return { kind: 'jwt' };
  if (/[\\/]/.test(raw) || /\.(m|c)?(j|t)s$/.test(raw)) {
    const path = resolve(raw);
    if (!existsSync(path)) throw new ConfigError(`HEADLESS_TOKEN_STRATEGY: no module at ${path}`);
    return { kind: 'module', path };
  }
  throw new ConfigError(`HEADLESS_TOKEN_STRATEGY: expected session, jwt or a module path (./my-strategy.js), got "${raw}"`);
}

function readAlgorithm(env: Env): JwtAlgorithm {
  const raw = readString(env, 'HEADLESS_JWT_ALGORITHM', 'RS256').trim().toUpperCase();
  if (!(ALGORITHMS as readonly string[]).includes(raw)) {
    throw new ConfigError(`HEADLESS_JWT_ALGORITHM: expected one of ${ALGORITHMS.join(', ')}, got "${raw}"`);
  }
  return raw as JwtAlgorithm;
}

/** A PEM pasted into one environment line usually arrives with literal "\n". */
function checkPrivateKey(raw: string, algorithm: JwtAlgorithm, label: string): string {
  if (algorithm.startsWith('HS')) {
    if (raw.length < 32) throw new ConfigError(`${label}: an HS secret needs at least 32 characters`);
    return raw;
  }
  const pem = raw.includes('\n') ? raw : raw.replace(/\\n/g, '\n');
  let key;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new ConfigError(`${label}: expected a PEM-encoded RSA private key`);
  }
  if (key.asymmetricKeyType !== 'rsa') throw new ConfigError(`${label}: ${algorithm} needs an RSA key`);
  if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw new ConfigError(`${label}: the RSA key must have at least 2048 bits`);
  return pem;
}

function readPrivateKey(env: Env, algorithm: JwtAlgorithm): string | undefined {
  const raw = readOptional(env, 'HEADLESS_JWT_PRIVATE_KEY');
  return raw === undefined ? undefined : checkPrivateKey(raw, algorithm, 'HEADLESS_JWT_PRIVATE_KEY');
}

export function readTokenSettings(env: Env): TokenSettings {
  const strategy = readStrategy(env);
  const algorithm = readAlgorithm(env);
  const privateKey = readPrivateKey(env, algorithm);
  if (strategy.kind === 'jwt' && algorithm.startsWith('RS') && privateKey === undefined) {
    throw new ConfigError(`HEADLESS_JWT_PRIVATE_KEY is required when HEADLESS_TOKEN_STRATEGY=jwt and HEADLESS_JWT_ALGORITHM=${algorithm}`);
  }
  const scheme = readString(env, 'HEADLESS_JWT_AUTHORIZATION_HEADER_SCHEME', 'Bearer').trim();
  // An auth-scheme is an HTTP token (RFC 9110 11.1): no spaces or separators.
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(scheme)) {
    throw new ConfigError('HEADLESS_JWT_AUTHORIZATION_HEADER_SCHEME: expected a single word such as Bearer');
  }
  return {
    strategy,
    jwt: {
      algorithm,
      privateKey,
      privateKeyFallbacks: readSecretList(env, 'HEADLESS_JWT_PRIVATE_KEY_FALLBACKS', (raw, label) => checkPrivateKey(raw, algorithm, label)),
      accessTokenExpiresIn: readInt(env, 'HEADLESS_JWT_ACCESS_TOKEN_EXPIRES_IN', 300, { min: 1, max: 30 * 86400 }),
      refreshTokenExpiresIn: readInt(env, 'HEADLESS_JWT_REFRESH_TOKEN_EXPIRES_IN', 86400, { min: 1, max: 365 * 86400 }),
      authorizationHeaderScheme: scheme,
      statefulValidation: readBool(env, 'HEADLESS_JWT_STATEFUL_VALIDATION_ENABLED', false),
      rotateRefreshToken: readBool(env, 'HEADLESS_JWT_ROTATE_REFRESH_TOKEN', true),
      refreshTokenReuseGrace: readInt(env, 'HEADLESS_JWT_REFRESH_TOKEN_REUSE_GRACE', 0, { min: 0, max: 300 }),
      statelessSnapshotSeconds: readInt(env, 'HEADLESS_JWT_STATELESS_SNAPSHOT_SECONDS', 5, { min: 0, max: 60 }),
    },
  };
}
