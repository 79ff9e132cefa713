import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import type { ApiClient } from '../support/client.js';
import type { TestServer } from '../support/server.js';
import { PASSWORD, keyFromMail, nthMail, readyClient, uniqueEmail } from '../support/accounts.js';

// Helpers of the MFA suites: accounts with a verified address (MFA setup
// refuses unverified ones), TOTP codes computed here from the secret at the
// server's (injected) time, and logins that stop at the second factor.

export type ClientKind = 'app' | 'browser';
export const CLIENTS: ClientKind[] = ['app', 'browser'];

/** Time a code needs to reach the server on a loaded machine, well within its period. */
const MARGIN_MS = 10_000;

/**
 * The TOTP code of `secret` at the server's time, `steps` periods later or
 * (negative) earlier. Near the end of a period the clock first moves to the
 * next one, so the period cannot roll over before the server checks the code.
 */
export function totpAt(server: TestServer, secret: string, steps = 0, period = 30, digits = 6): string {
  const periodMs = period * 1000;
  const left = periodMs - (server.clock.now() % periodMs);
  if (left < MARGIN_MS) server.clock.advance(left + 1);
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: server.clock.now() + steps * periodMs, period, digits, algorithm: 'SHA1' });
}

/** Moves the server's clock to the start of the next TOTP period, so a new code is current. */
export function nextPeriod(server: TestServer, period = 30): void {
  const now = server.clock.now();
  server.clock.advance(period * 1000 - (now % (period * 1000)) + 1);
}

export interface Account {
  client: ApiClient;
  email: string;
  password: string;
}

/**
 * A new account whose address is verified, logged in on `client` with a
 * recent authentication (signup proves none, so the password is confirmed).
 * The server runs with optional email verification.
 */
export async function verifiedAccount(server: TestServer, kind: ClientKind, email = uniqueEmail('mfa')): Promise<Account> {
  const client = await readyClient(server, kind);
  const signup = await client.post('/auth/signup', { email, password: PASSWORD });
  assert.equal(signup.status, 200, JSON.stringify(signup.body));
  const key = keyFromMail(await nthMail(server.mail, email, 1));
  assert.equal((await client.post('/auth/email/verify', { key })).status, 200);
  assert.equal((await client.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
  return { client, email, password: PASSWORD };
}

/** Sets up TOTP on the logged-in client and returns the secret. */
export async function enableTotp(server: TestServer, client: ApiClient): Promise<string> {
  const offer = await client.get('/account/authenticators/totp');
  assert.equal(offer.status, 404, JSON.stringify(offer.body));
  const secret: string = offer.body.meta.secret;
  const activated = await client.post('/account/authenticators/totp', { code: totpAt(server, secret) });
  assert.equal(activated.status, 200, JSON.stringify(activated.body));
  return secret;
}

/** An account with TOTP (and so recovery codes) on, and the secret. */
export async function totpAccount(server: TestServer, kind: ClientKind): Promise<Account & { secret: string }> {
  const account = await verifiedAccount(server, kind);
  return { ...account, secret: await enableTotp(server, account.client) };
}

/** A fresh client that passed the password and now faces the second factor. */
export async function pendingSecondFactor(server: TestServer, kind: ClientKind, email: string, password = PASSWORD): Promise<ApiClient> {
  const client = await readyClient(server, kind);
  const login = await client.post('/auth/login', { email, password });
  assert.equal(login.status, 401, JSON.stringify(login.body));
  assert.ok(
    login.body.data.flows.some((f: { id: string; is_pending?: boolean }) => f.id === 'mfa_authenticate' && f.is_pending),
    JSON.stringify(login.body),
  );
  return client;
}

/** The unused recovery codes of the logged-in client (needs a recent authentication). */
export async function recoveryCodes(client: ApiClient): Promise<string[]> {
  const response = await client.get('/account/authenticators/recovery-codes');
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.data.unused_codes;
}

/** The pending flow of a 401 body, with its fields. */
export function pendingFlow(body: any): { id: string; types?: string[] } | undefined {
  return (body?.data?.flows ?? []).find((f: { is_pending?: boolean }) => f.is_pending);
}
