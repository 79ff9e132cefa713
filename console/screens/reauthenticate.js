// Confirming the password (or a code, or a security key) again before a
// change, when the session's proof is older than
// ACCOUNT_REAUTHENTICATION_TIMEOUT: a modal dialog, so that it shows
// wherever the page is scrolled. The 401's flows say which ways there are.
import { useState } from '../vendor/hooks.js';
import { AUTH, call, errorText } from '../lib/api.js';
import { t } from '../lib/i18n.js';
import { Dialog, html, Problem } from '../lib/ui.js';
import { webauthnAvailable } from './onboarding-webauthn.js';
import { withKey } from './sign-in.js';

/** `request.flows` as the 401 named them; `onDone(true)` once the session is fresh, `onDone(false)` when cancelled. */
export function Reauthenticate({ request, onDone }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const types = (request.flows ?? []).find((f) => f.id === 'mfa_reauthenticate')?.types ?? [];
  const byCode = types.includes('totp') || types.includes('recovery_codes');
  const byKey = types.includes('webauthn') && webauthnAvailable();

  async function run(attempt) {
    setBusy(true);
    const { result, error: failed } = await attempt();
    setBusy(false);
    if (result?.http === 200) return onDone(true);
    setError(failed ?? errorText(result.body));
  }
  function submit(event) {
    event.preventDefault();
    const form = new FormData(event.target);
    const password = String(form.get('password') ?? '');
    return run(async () => ({
      result: password
        ? await call('POST', `${AUTH}/auth/reauthenticate`, { password })
        : await call('POST', `${AUTH}/auth/2fa/reauthenticate`, { code: String(form.get('code') ?? '').trim() }),
    }));
  }
  const key = () => run(() => withKey(`${AUTH}/auth/webauthn/reauthenticate`));

  return html`<${Dialog} id="reauthenticate" title=${t('reauth.title')} onClose=${() => onDone(false)}>
    ${byKey
      ? html`<p>${t('reauth.key_prompt')}</p>
          <div class="actions">
            <button type="button" class="primary" id="reauth-key" disabled=${busy} aria-busy=${busy ? 'true' : undefined} onClick=${key}>${t('reauth.use_key')}</button>
          </div>
          <p class="muted">${t(byCode ? 'reauth.or_password_or_code' : 'reauth.or_password')}</p>`
      : html`<p>${t('reauth.prompt', { method: byCode ? 'code' : 'password' })}</p>`}
    <form class="stack" onSubmit=${submit}>
      <label>${t('reauth.password')} <input name="password" id="reauth-password" type="password" autocomplete="current-password" /></label>
      ${byCode && html`<label>${t('reauth.code')} <input name="code" id="reauth-code" autocomplete="one-time-code" /></label>`}
      <div class="actions">
        <button class=${byKey ? '' : 'primary'} id="reauth-submit" disabled=${busy} aria-busy=${busy ? 'true' : undefined}>${t('reauth.confirm')}</button>
        <button type="button" id="reauth-cancel" onClick=${() => onDone(false)}>${t('cancel')}</button>
      </div>
    </form>
    <${Problem} id="reauth-error" text=${error} />
  <//>`;
}
