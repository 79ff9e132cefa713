import assert from 'node:assert/strict';
import type { ApiClient } from '../support/client.js';
import type { TestServer } from '../support/server.js';
import { extractUrls, type ReceivedMail } from '../support/smtp-sink.js';
import { PASSWORD, readyClient, uniqueEmail } from '../support/accounts.js';

// Helpers shared by the account-management suites.

export const CLIENTS = ['app', 'browser'] as const;
export type ClientKind = (typeof CLIENTS)[number];

/**
 * A new account (verification off or optional) and a client logged in to it
 * with a recent authentication: signing up proves no factor (as in the
 * reference), so the password is confirmed once, as a user asked to would.
 */
export async function loggedInUser(server: TestServer, kind: ClientKind, email = uniqueEmail()): Promise<{ client: ApiClient; email: string }> {
  const client = await readyClient(server, kind);
  const response = await client.post('/auth/signup', { email, password: PASSWORD });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  assert.equal((await client.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
  return { client, email };
}

/** Logs a fresh client of `kind` in with a password. */
export async function loginClient(server: TestServer, kind: ClientKind, email: string, password = PASSWORD): Promise<ApiClient> {
  const client = await readyClient(server, kind);
  const response = await client.post('/auth/login', { email, password });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return client;
}

/** The reset key: the last path segment of the link in the mail. */
export function resetKeyFromMail(mail: ReceivedMail): string {
  const url = extractUrls(mail.text).find((u) => u.includes('/password/reset/key/'));
  assert.ok(url, `no reset link in: ${mail.text}`);
  return decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).pop()!);
}

/** The `id` of every flow, `!` marking a pending one, including those explicitly not pending. */
export function flowStates(body: any): Array<{ id: string; is_pending?: boolean }> {
  return body?.data?.flows ?? [];
}
