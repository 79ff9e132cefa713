import { createHmac } from 'node:crypto';

// Signatures as the Standard Webhooks specification defines them, so that
// receivers can check them with its libraries: HMAC-SHA256 over
// "<webhook-id>.<webhook-timestamp>.<body>", base64, prefixed with "v1,".

export function webhookSignature(secret: Buffer, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', secret).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The headers of one delivery attempt; the timestamp is the attempt's, so a retry is signed afresh. */
export function signedHeaders(secret: Buffer, id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': webhookSignature(secret, id, timestampSeconds, body),
  };
}
