import { createHash } from 'node:crypto';
import type { Deps } from '../../../flows/context.js';

// The page a provider that answers in the URL fragment (Telegram) sends the
// browser to: a server never sees a fragment, so this page's only script
// posts the fragment's fields back to its own URL (query and all), where the
// login completes. The script is allowed by its hash and nothing else runs;
// the page can neither be framed nor leak its URL (which names the flow) as
// a referrer.

export const RELAY_SCRIPT = `(function () {
  var form = document.createElement('form');
  form.method = 'POST';
  form.action = window.location.href.split('#')[0];
  new URLSearchParams(window.location.hash.slice(1)).forEach(function (value, name) {
    var field = document.createElement('input');
    field.type = 'hidden';
    field.name = name;
    field.value = value;
    form.appendChild(field);
  });
  document.body.appendChild(form);
  form.submit();
})();`;

/** The page (the socialaccount/relay.html template) in the request's language. */
export function relayPage(deps: Pick<Deps, 'config' | 'templates' | 'i18n'>, acceptLanguage: string | undefined): string {
  const site = { name: deps.config.siteName, domain: new URL(deps.config.frontendUrls.account_signup).host };
  return deps.templates.render('socialaccount/relay.html', deps.i18n.negotiate(acceptLanguage), { current_site: site, relay_script: RELAY_SCRIPT });
}

export const RELAY_PAGE_HEADERS = {
  'content-security-policy': `default-src 'none'; script-src 'sha256-${createHash('sha256').update(RELAY_SCRIPT).digest('base64')}'; base-uri 'none'; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};
