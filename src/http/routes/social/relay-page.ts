import type { Deps } from '../../../flows/context.js';
import { currentSite } from '../../../messaging/mail-content.js';
import { scriptPageHeaders } from './script-page.js';

// The page a provider that answers in the URL fragment (Telegram) sends the
// browser to: a server never sees a fragment, so this page's only script
// posts the fragment's fields back to its own URL (query and all), where the
// login completes.

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
  return deps.templates.render('socialaccount/relay.html', deps.i18n.negotiate(acceptLanguage), { current_site: currentSite(deps.config), relay_script: RELAY_SCRIPT });
}

export const RELAY_PAGE_HEADERS = scriptPageHeaders(RELAY_SCRIPT);
