import { createHmac } from 'node:crypto';
import type { SmsSender } from './sender.js';

/**
 * POSTs `{"to", "message"}` as JSON to a gateway of the operator's choosing.
 * `X-Signature: sha256=<hex>` is the HMAC-SHA256, under SMS_WEBHOOK_SECRET,
 * of `<X-Signature-Timestamp>.<exact body bytes>`: the receiver can tell our
 * requests from forged ones, and by refusing old timestamps it also refuses
 * a captured request sent again (which would text the code once more). The
 * timestamp is wall-clock Unix seconds, since it is compared on another machine.
 */
export function webhookSender(opts: { url: string; secret: string; timeoutMs: number }): SmsSender {
  return {
    async send(sms) {
      const body = JSON.stringify({ to: sms.to, message: sms.message });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = createHmac('sha256', opts.secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
      const response = await fetch(opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature-timestamp': timestamp, 'x-signature': `sha256=${signature}` },
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
