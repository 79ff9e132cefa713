import { createHash } from 'node:crypto';
import type { Deps } from '../../../flows/context.js';
import type { PostForm } from '../../../social/saml/provider.js';

// The page that posts an AuthnRequest to an IdP taking the HTTP-POST
// binding: its only script submits the form at once (a button without
// JavaScript). The script is allowed by its hash and nothing else runs; the
// page can neither be framed nor leak its URL (which names the flow) as a
// referrer.

const SUBMIT_SCRIPT = 'document.forms[0].submit();';

export function samlPostPage(deps: Pick<Deps, 'config' | 'templates' | 'i18n'>, form: PostForm, acceptLanguage: string | undefined): string {
  const site = { name: deps.config.siteName, domain: new URL(deps.config.frontendUrls.account_signup).host };
  const fields = Object.entries(form.fields).map(([name, value]) => ({ name, value }));
  return deps.templates.render('socialaccount/saml_post.html', deps.i18n.negotiate(acceptLanguage), { current_site: site, action: form.action, fields, script: SUBMIT_SCRIPT });
}

export const SAML_POST_PAGE_HEADERS = {
  'content-security-policy': `default-src 'none'; script-src 'sha256-${createHash('sha256').update(SUBMIT_SCRIPT).digest('base64')}'; base-uri 'none'; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};
