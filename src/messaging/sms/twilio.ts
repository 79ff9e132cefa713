import type { SmsSender } from './sender.js';

interface TwilioOptions {
  accountSid: string;
  authToken: string;
  from: string;
  /** https://api.twilio.com in production; tests point it at a local impersonation. */
  apiBaseUrl: string;
  timeoutMs: number;
}

/** Twilio's Messages resource: a form POST under HTTP basic auth (account SID, auth token). */
export function twilioSender(opts: TwilioOptions): SmsSender {
  const url = `${opts.apiBaseUrl}/2010-04-01/Accounts/${encodeURIComponent(opts.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64')}`;
  return {
    async send(sms) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ To: sms.to, From: opts.from, Body: sms.message }).toString(),
        redirect: 'error',
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      const text = await response.text();
      if (response.ok) return;
      // Twilio's error body names a numeric code (e.g. 21211, invalid "To"); keep it for the log.
      let code: unknown;
      try {
        code = (JSON.parse(text) as { code?: unknown }).code;
      } catch {
        code = undefined;
      }
      throw new Error(`Twilio answered HTTP ${response.status}${code === undefined ? '' : ` (error ${String(code)})`}`);
    },
  };
}
