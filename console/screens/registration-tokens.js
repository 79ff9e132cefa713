// Initial access tokens (GET, POST /idp/initial-access-tokens, DELETE .../:id):
// whoever holds one may register a client at the registration endpoint
// (IDP_OIDC_REGISTRATION=initial_access_token) until it expires or its uses
// run out. A new token is shown once; revoking one asks first.
import { useCallback, useEffect, useState } from '../vendor/hooks.js';
import { API, call, errorsByParam, errorText } from '../lib/api.js';
import { number, t } from '../lib/i18n.js';
import { href } from '../lib/router.js';
import { Button, ConfirmButton, html, Notice, Problem, Time } from '../lib/ui.js';
import { fieldError, placeErrors } from './client-fields.js';
import { settingValue } from './clients.js';
import { ShownOnce } from './shown-once.js';

const UNITS = { minutes: 60, hours: 3600, days: 86400 };

export function RegistrationTokens({ change }) {
  const [tokens, setTokens] = useState(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [mode, setMode] = useState(null);
  const load = useCallback(async () => {
    const result = await call('GET', `${API}/idp/initial-access-tokens`);
    if (result.http !== 200) return setError(errorText(result.body));
    setTokens(result.body.data);
  }, []);
  useEffect(() => {
    void load();
    settingValue('IDP_OIDC_REGISTRATION').then((value) => setMode(value ?? 'off'));
  }, [load]);

  async function revoke(token) {
    setNotice('');
    setError('');
    const result = await change('DELETE', `${API}/idp/initial-access-tokens/${token.id}`);
    if (!result) return;
    if (result.http >= 400) return setError(errorText(result.body));
    setNotice(t('clients.tokens.revoked', { id: token.id }));
    await load();
  }

  return html`<div id="registration-tokens-page">
    <p><a href=${href('clients')} id="tokens-back">${t('clients.back')}</a></p>
    <section id="registration-tokens">
      <h1>${t('clients.tokens.title')}</h1>
      <p class="muted">${t('clients.tokens.intro')}</p>
      ${mode !== null && mode !== 'initial_access_token' && html`<p class="warning" id="registration-mode">${t('clients.tokens.not_used', { mode })}</p>`}
      <${Notice} id="tokens-notice" text=${notice} />
      <${Problem} id="tokens-error" text=${error} />
      ${tokens?.length === 0 && html`<p class="muted" id="tokens-none">${t('clients.tokens.none')}</p>`}
      ${tokens?.length > 0 &&
      html`<div class="scroll"><table id="tokens-table">
        <thead><tr><th scope="col">${t('clients.tokens.column.token')}</th><th scope="col">${t('clients.column.created')}</th><th scope="col">${t('clients.tokens.column.expires')}</th><th scope="col">${t('clients.tokens.column.uses_left')}</th><th scope="col"><span class="visually-hidden">${t('clients.tokens.column.actions')}</span></th></tr></thead>
        <tbody>${tokens.map(
          (token) => html`<tr data-token=${token.id}>
            <td>${t('clients.tokens.name', { id: token.id })}</td>
            <td data-label=${t('clients.column.created')}><${Time} at=${token.created_at} /></td>
            <td data-label=${t('clients.tokens.column.expires')}>${token.expires_at ? html`<${Time} at=${token.expires_at} />` : html`<span class="muted">${t('clients.tokens.never')}</span>`}</td>
            <td data-label=${t('clients.tokens.column.uses_left')}>${token.uses_left === null ? html`<span class="muted">${t('clients.tokens.unlimited')}</span>` : number(token.uses_left)}</td>
            <td class="end"><${ConfirmButton} id=${`revoke-token-${token.id}`} label=${t('clients.tokens.revoke')} question=${t('clients.tokens.revoke_question', { id: token.id })} onConfirm=${() => revoke(token)} /></td>
          </tr>`,
        )}</tbody>
      </table></div>`}
    </section>
    <${MakeToken} change=${change} onMade=${load} />
  </div>`;
}

function MakeToken({ change, onMade }) {
  const [held, setHeld] = useState({ amount: '7', unit: 'days', uses: '1' });
  const [errors, setErrors] = useState({});
  const [made, setMade] = useState('');
  const set = (key, value) => setHeld((previous) => ({ ...previous, [key]: value }));
  async function make() {
    const body = {};
    // Empty: no expiry, any number of uses (the API's defaults).
    if (held.amount.trim()) body.expires_in = Math.round(Number(held.amount) * UNITS[held.unit]);
    if (held.uses.trim()) body.uses = Number(held.uses);
    setErrors({});
    setMade('');
    const result = await change('POST', `${API}/idp/initial-access-tokens`, body);
    if (!result) return;
    if (result.http >= 400) return setErrors(placeErrors(errorsByParam(result.body), ['expires_in', 'uses']));
    setMade(result.body.meta.token);
    await onMade();
  }
  const expires = fieldError(errors, 'token', 'expires_in');
  const uses = fieldError(errors, 'token', 'uses');
  return html`<section id="make-token">
    <h2>${t('clients.tokens.make_title')}</h2>
    ${made && html`<${ShownOnce} id="made-token" label=${t('clients.tokens.made')} value=${made} warning=${t('clients.tokens.shown_once')} />`}
    <form class="token-form" id="token-form" novalidate onSubmit=${(e) => e.preventDefault()}>
      <label>${t('clients.tokens.expires_in')}
        <span class="inline">
          <input id="token-expires_in" type="number" min="1" inputmode="numeric" value=${held.amount} onInput=${(e) => set('amount', e.target.value)} ...${expires.attributes} />
          <select id="token-unit" aria-label=${t('clients.tokens.unit')} value=${held.unit} onChange=${(e) => set('unit', e.target.value)}>
            ${Object.keys(UNITS).map((unit) => html`<option value=${unit}>${t(`clients.tokens.unit.${unit}`)}</option>`)}
          </select>
        </span>
        <span class="muted small">${t('clients.tokens.expires_help')}</span>
        ${expires.shown}
      </label>
      <label>${t('clients.tokens.uses')}
        <input id="token-uses" type="number" min="1" inputmode="numeric" value=${held.uses} onInput=${(e) => set('uses', e.target.value)} ...${uses.attributes} />
        <span class="muted small">${t('clients.tokens.uses_help')}</span>
        ${uses.shown}
      </label>
      <${Problem} id="token-error" text=${errors['']?.join(' ')} />
      <div class="actions"><${Button} type="submit" class="primary" id="token-submit" busyLabel=${t('busy')} onClick=${make}>${t('clients.tokens.make')}<//></div>
    </form>
  </section>`;
}
