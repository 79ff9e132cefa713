import { msg, type MessageRef } from '../../i18n/message.js';
import type { Db } from '../../store/db.js';
import type { Config } from '../../config/config.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';
import { hashSecret, randomKey } from '../../security/secrets.js';
import { deleteInitialAccessToken, insertInitialAccessToken, listInitialAccessTokens, type InitialAccessTokenRecord } from '../../store/idp-registration.js';

// Initial access tokens of dynamic client registration
// (IDP_OIDC_REGISTRATION=initial_access_token), for the CLI and the admin
// API: a token lets its bearer register clients until it expires or its
// uses run out. It is shown once and stored as its SHA-256.

export interface InitialAccessTokenDeps {
  config: Config;
  db: Db;
}

export interface InitialAccessTokenInput {
  /** Seconds from now; none: until revoked or used up. */
  expiresIn?: number;
  /** Registrations it allows; none: any number. */
  uses?: number;
}

export type InitialAccessTokenProblem = { ok: false; param: 'expires_in' | 'uses'; message: MessageRef };

export async function createInitialAccessToken(
  deps: InitialAccessTokenDeps,
  source: AuditSource,
  input: InitialAccessTokenInput,
): Promise<{ ok: true; record: InitialAccessTokenRecord; token: string } | InitialAccessTokenProblem> {
  if (input.expiresIn !== undefined && !(Number.isInteger(input.expiresIn) && input.expiresIn >= 60 && input.expiresIn <= 366 * 86400)) {
    return { ok: false, param: 'expires_in', message: msg('invalid.expires_in', { min: 60, max: 366 * 86400, days: 366 }) };
  }
  if (input.uses !== undefined && !(Number.isInteger(input.uses) && input.uses >= 1 && input.uses <= 1_000_000)) return { ok: false, param: 'uses', message: msg('invalid.uses', { min: 1, max: 1_000_000 }) };
  const token = randomKey(32);
  const record = await deps.db.transaction().execute(async (tx) => {
    const made = await insertInitialAccessToken(tx, hashSecret(token), source.now, input.expiresIn === undefined ? null : source.now + input.expiresIn * 1000, input.uses ?? null);
    await recordEvent(deps, tx, source, 'idp_initial_access_token.created', { userId: null, detail: { initial_access_token_id: made.id } });
    return made;
  });
  return { ok: true, record, token };
}

/** The tokens that may still register a client. */
export function initialAccessTokens(deps: InitialAccessTokenDeps, now: number): Promise<InitialAccessTokenRecord[]> {
  return listInitialAccessTokens(deps.db, now);
}

/** Revokes a token; the clients registered with it stay. */
export async function revokeInitialAccessToken(deps: InitialAccessTokenDeps, source: AuditSource, id: number): Promise<boolean> {
  return deps.db.transaction().execute(async (tx) => {
    if (!(await deleteInitialAccessToken(tx, id))) return false;
    await recordEvent(deps, tx, source, 'idp_initial_access_token.revoked', { userId: null, detail: { initial_access_token_id: id } });
    return true;
  });
}
