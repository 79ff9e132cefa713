import { createHash } from 'node:crypto';

// The headers of the browser pages of social login that carry one script of
// our own: that script runs by its hash and nothing else, and the page can
// neither be framed nor leak its URL (which names the flow) as a referrer.

export function scriptPageHeaders(script: string): Record<string, string> {
  return {
    'content-security-policy': `default-src 'none'; script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'; base-uri 'none'; frame-ancestors 'none'`,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

