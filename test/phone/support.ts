import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import type { ApiClient } from '../support/client.js';
import type { TestServer } from '../support/server.js';
import { readyClient } from '../support/accounts.js';
import { codeIn, type SmsInbox, type SmsReceiver } from '../support/sms-receiver.js';

// Helpers shared by the phone suites.

export const PASSWORD = 'a long secret phrase';

// Valid US numbers (415 area code); a running counter keeps them unique within a file.
let next = randomInt(0, 5000);
export function uniquePhone(): string {
  return `+1415555${String(next++ % 10000).padStart(4, '0')}`;
}

/** The same number as a person might type it. */
export function formatted(phone: string): string {
  return `${phone.slice(0, 2)} (${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`;
}

export function webhookEnv(sms: SmsReceiver): Record<string, string> {
  return { SMS_BACKEND: 'webhook', SMS_WEBHOOK_URL: sms.url, SMS_WEBHOOK_SECRET: sms.secret };
}

/** Phone-only accounts: signup and login by number and password. */
export const PHONE_ONLY = { ACCOUNT_SIGNUP_FIELDS: 'phone*,password1*', ACCOUNT_LOGIN_METHODS: 'phone' };

export function pendingFlow(body: any): string | undefined {
  return body?.data?.flows?.find((f: { is_pending?: boolean }) => f.is_pending)?.id;
}

export async function nextCode(sms: SmsInbox, phone: string): Promise<string> {
  return codeIn(await sms.next(phone));
}

/** Signs a phone-only account up and verifies the number; the client ends up logged in. */
export async function phoneAccount(server: TestServer, sms: SmsInbox, kind: 'browser' | 'app', phone = uniquePhone()): Promise<{ client: ApiClient; phone: string }> {
  const client = await readyClient(server, kind);
  const signup = await client.post('/auth/signup', { phone, password: PASSWORD });
  assert.equal(signup.status, 401, JSON.stringify(signup.body));
  assert.equal(pendingFlow(signup.body), 'verify_phone');
  const verified = await client.post('/auth/phone/verify', { code: await nextCode(sms, phone) });
  assert.equal(verified.status, 200, JSON.stringify(verified.body));
  return { client, phone };
}
