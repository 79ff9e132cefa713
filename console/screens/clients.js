// The OpenID provider's clients (GET /idp/clients, oldest first): name,
// client_id, how it authenticates, its redirect URIs and when it was made,
// each a link to its page; a new client, and the registration tokens.
import { useEffect, useState } from '../vendor/hooks.js';
import { API, call, errorText } from '../lib/api.js';
import { nameOf, t } from '../lib/i18n.js';
import { href } from '../lib/router.js';
import { Badge, html, Problem, Time } from '../lib/ui.js';

/** The value of a setting in force (GET /settings), null when unset or unreadable. */
export async function settingValue(name) {
  const result = await call('GET', `${API}/settings`);
  for (const group of result.body?.data ?? []) for (const s of group.settings) if (s.name === name) return s.value;
  return null;
}

export function Clients() {
  const [clients, setClients] = useState(null);
  const [error, setError] = useState('');
  const [providerOff, setProviderOff] = useState(false);
  useEffect(() => {
    call('GET', `${API}/idp/clients`).then((result) => (result.http === 200 ? setClients(result.body.data) : setError(errorText(result.body))));
    settingValue('IDP_OIDC_ENABLED').then((value) => setProviderOff(!/^(true|1|yes|on)$/i.test(value?.trim() ?? '')));
  }, []);

  return html`<section id="clients">
    <div class="heading">
      <h1>${t('clients.title')}</h1>
      <div class="actions">
        <a class="button" id="registration-tokens" href=${href('clients/registration-tokens')}>${t('clients.tokens.title')}</a>
        <a class="button primary" id="new-client" href=${href('clients/new')}>${t('clients.new')}</a>
      </div>
    </div>
    <p class="muted">${t('clients.intro')}</p>
    ${providerOff && html`<p class="warning" id="provider-off">${t('clients.provider_off')}</p>`}
    <${Problem} id="clients-error" text=${error} />
    ${clients === null && !error && html`<p>${t('loading')}</p>`}
    ${clients?.length === 0 && html`<p class="users-empty" id="clients-none">${t('clients.none_yet')}</p>`}
    ${clients?.length > 0 &&
    html`<div class="scroll"><table id="clients-table">
      <thead><tr><th scope="col">${t('clients.column.client')}</th><th scope="col">${t('clients.column.auth')}</th><th scope="col">${t('clients.column.redirects')}</th><th scope="col">${t('clients.column.created')}</th></tr></thead>
      <tbody>${clients.map((c) => html`<${Row} client=${c} />`)}</tbody>
    </table></div>`}
  </section>`;
}

function Row({ client: c }) {
  const [first, ...rest] = c.redirect_uris;
  return html`<tr data-client=${c.id}>
    <td class="who"><a href=${href(`clients/${encodeURIComponent(c.id)}`)}>${c.name}</a> <code class="muted small client-id">${c.id}</code></td>
    <td data-label=${t('clients.column.auth')}>${nameOf('client_auth', c.token_endpoint_auth_method)} ${c.type === 'public' && html`<${Badge}>${nameOf('client_type', 'public')}<//>`}</td>
    <td data-label=${t('clients.column.redirects')} class="uri">${first ?? html`<span class="muted">–</span>`}${rest.length > 0 && html` <span class="muted small">${t('clients.more', { count: rest.length })}</span>`}</td>
    <td data-label=${t('clients.column.created')}><${Time} at=${c.created_at} /></td>
  </tr>`;
}
