// Confirming the password (or a code) again before a change, when the
// session's proof is older than ACCOUNT_REAUTHENTICATION_TIMEOUT: a modal
// dialog, so that it shows wherever the page is scrolled.
import { useState } from '../vendor/hooks.js';
import { AUTH, call, errorText } from '../lib/api.js';
import { t } from '../lib/i18n.js';
import { Dialog, html, Problem } from '../lib/ui.js';

/** `request.flows` as the 401 named them; `onDone(true)` once the session is fresh, `onDone(false)` when cancelled. */
export function Reauthenticate({ request, onDone }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const byCode = (request.flows ?? []).some((f) => f.id === 'mfa_reauthenticate');
  async function submit(event) {
    event.preventDefault();
    const form = new FormData(event.target);
    const password = String(form.get('password') ?? '');
    setBusy(true);
    const result = password
      ? await call('POST', `${AUTH}/auth/reauthenticate`, { password })
      : await call('POST', `${AUTH}/auth/2fa/reauthenticate`, { code: String(form.get('code') ?? '').trim() });
    setBusy(false);
    if (result.http === 200) return onDone(true);
    setError(errorText(result.body));
  }
  return html`<${Dialog} id="reauthenticate" title=${t('reauth.title')} onClose=${() => onDone(false)}>
    <p>${t('reauth.prompt', { method: byCode ? 'code' : 'password' })}</p>
    <form class="stack" onSubmit=${submit}>
      <label>${t('reauth.password')} <input name="password" id="reauth-password" type="password" autocomplete="current-password" /></label>
      ${byCode && html`<label>${t('reauth.code')} <input name="code" id="reauth-code" autocomplete="one-time-code" /></label>`}
      <div class="actions">
        <button class="primary" id="reauth-submit" disabled=${busy} aria-busy=${busy ? 'true' : undefined}>${t('reauth.confirm')}</button>
        <button type="button" onClick=${() => onDone(false)}>${t('cancel')}</button>
      </div>
    </form>
    <${Problem} text=${error} />
  <//>`;
}
