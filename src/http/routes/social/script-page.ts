import { createHash } from 'node:crypto';
import type { Deps } from '../../../flows/context.js';

// What the browser pages of social login that carry one script of our own
// share: the headers that let that script run by its hash and nothing else,
// and keep the page from being framed or leaking its URL (which names the
// flow) as a referrer; and the site their templates name.

export function scriptPageHeaders(script: string): Record<string, string> {
  return {
    'content-security-policy': `default-src 'none'; script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'; base-uri 'none'; frame-ancestors 'none'`,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

/** The templates' `current_site`. */
export const currentSite = (config: Deps['config']) => ({ name: config.siteName, domain: new URL(config.frontendUrls.account_signup).host });
