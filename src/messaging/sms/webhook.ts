import { createHmac } from 'node:crypto';
import type { SmsSender } from './sender.js';

/**
 * POSTs `{"to", "message"}` as JSON to a gateway of the operator's choosing.
 * `X-Signature: sha256=<hex>` is the HMAC-SHA256 of the exact body bytes under
 * SMS_WEBHOOK_SECRET, so the receiver can tell our requests from forged ones.
 */
export function webhookSender(opts: { url: string; secret: string; timeoutMs: number }): SmsSender {
  return {
    async send(sms) {
      const body = JSON.stringify({ to: sms.to, message: sms.message });
      const signature = createHmac('sha256', opts.secret).update(body, 'utf8').digest('hex');
      const response = await fetch(opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature': `sha256=${signature}` },
        body,
        // A redirect would resend the message somewhere else; the URL is configured exactly.
        redirect: 'error',
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`SMS webhook answered HTTP ${response.status}`);
    },
  };
}
