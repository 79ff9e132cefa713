// Enrolment with a security key or passkey: creation options from the
// server, the browser's prompt, the new credential back
// (GET/POST /account/authenticators/webauthn). A passkey (?passwordless)
// also signs in on its own when MFA_PASSKEY_LOGIN_ENABLED is on.
import { useEffect, useState } from '../vendor/hooks.js';
import { AUTH, call, errorText } from '../lib/api.js';
import { t } from '../lib/i18n.js';
import { html, Problem } from '../lib/ui.js';
import { enrolProblem } from './onboarding-problems.js';
import { cancelled, createCredential, webauthnAvailable } from './onboarding-webauthn.js';

const URL_KEYS = `${AUTH}/account/authenticators/webauthn`;

export function KeySetup({ confirmed, onEnrolled, onBack }) {
  const [problem, setProblem] = useState(webauthnAvailable() ? '' : t('onboarding.key.unavailable'));
  const [passkeys, setPasskeys] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    call('GET', `${AUTH}/config`).then((result) => setPasskeys(result.body?.data?.mfa?.passkey_login_enabled === true));
  }, []);

  async function submit(event) {
    event.preventDefault();
    const form = new FormData(event.target);
    setBusy(true);
    setProblem('');
    try {
      const options = await confirmed('GET', form.get('passkey') ? `${URL_KEYS}?passwordless` : URL_KEYS);
      if (options === null) return;
      if (options.http !== 200) return setProblem(enrolProblem(options.body) || errorText(options.body));
      let credential;
      try {
        credential = await createCredential(options.body.data);
      } catch (error) {
        return setProblem(cancelled(error) ? t('onboarding.key.cancelled') : String(error?.message ?? error));
      }
      const name = String(form.get('name') ?? '').trim();
      const added = await confirmed('POST', URL_KEYS, { credential, ...(name ? { name } : {}) });
      if (added === null) return;
      if (added.http === 200) return onEnrolled();
      setProblem(enrolProblem(added.body) || errorText(added.body));
    } finally {
      setBusy(false);
    }
  }

  return html`<div class="key-setup">
    <h2>${t('onboarding.key.title')}</h2>
    <p>${t('onboarding.key.intro')}</p>
    <form class="stack" onSubmit=${submit}>
      <label>${t('onboarding.key.name')} <input name="name" id="key-name" maxlength="100" placeholder=${t('onboarding.key.name_placeholder')} /></label>
      ${passkeys && html`<label class="check"><input type="checkbox" name="passkey" id="key-passkey" /> ${t('onboarding.key.passkey')}</label>`}
      <${Problem} id="onboarding-problem" text=${problem} />
      <div class="actions">
        <button class="primary" id="key-submit" disabled=${busy || !webauthnAvailable()} aria-busy=${busy ? 'true' : undefined}>${t('onboarding.key.add')}</button>
        ${onBack && html`<button type="button" id="onboarding-back" onClick=${onBack}>${t('onboarding.back')}</button>`}
      </div>
    </form>
  </div>`;
}
