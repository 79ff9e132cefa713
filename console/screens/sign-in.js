// Sign-in: the browser login mounted on the admin listener, password first,
// then the second factor the admin role asks for (a code, or a security key
// when the account has one); or a passkey alone when MFA_PASSKEY_LOGIN_ENABLED.
import { useEffect, useRef, useState } from '../vendor/hooks.js';
import { AUTH, call, errorText } from '../lib/api.js';
import { Brand } from '../lib/brand.js';
import { t } from '../lib/i18n.js';
import { html, Problem } from '../lib/ui.js';
import { cancelled, getAssertion, webauthnAvailable } from './onboarding-webauthn.js';

/** Options from `url` (GET), the browser's prompt, the assertion POSTed back; the POST's answer, or an error text. */
export async function withKey(url) {
  const options = await call('GET', url);
  if (options.http !== 200) return { error: errorText(options.body) };
  try {
    return { result: await call('POST', url, { credential: await getAssertion(options.body.data) }) };
  } catch (error) {
    return { error: cancelled(error) ? t('onboarding.key.cancelled') : String(error?.message ?? error) };
  }
}

export function SignIn({ onSignedIn }) {
  const [types, setTypes] = useState(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [passkeys, setPasskeys] = useState(false);

  useEffect(() => {
    call('GET', `${AUTH}/config`).then((result) => setPasskeys(result.body?.data?.mfa?.passkey_login_enabled === true && webauthnAvailable()));
  }, []);

  async function submitPassword(event) {
    event.preventDefault();
    const form = new FormData(event.target);
    const login = String(form.get('login')).trim();
    const payload = login.includes('@') ? { email: login } : { username: login };
    setBusy(true);
    const result = await call('POST', `${AUTH}/auth/login`, { ...payload, password: form.get('password') });
    setBusy(false);
    if (result.http === 200) return onSignedIn();
    const pending = result.body?.data?.flows?.find((f) => f.is_pending);
    if (result.http === 401 && pending?.id === 'mfa_authenticate') {
      setError('');
      return setTypes(pending.types ?? []);
    }
    if (result.http === 409) return onSignedIn();
    setError(result.http === 401 ? t('sign_in.refused') : errorText(result.body));
  }

  async function passkey() {
    setBusy(true);
    const { result, error: failed } = await withKey(`${AUTH}/auth/webauthn/login`);
    setBusy(false);
    if (result?.http === 200) return onSignedIn();
    setError(failed ?? (result.http === 401 ? t('sign_in.refused') : errorText(result.body)));
  }

  return html`<section id="sign-in">
    <${Brand} />
    <h1>${t('sign_in.title')}</h1>
    ${types === null
      ? html`<form class="stack" onSubmit=${submitPassword}>
            <label>${t('sign_in.login')} <input name="login" id="login" autocomplete="username webauthn" required /></label>
            <label>${t('sign_in.password')} <input name="password" id="password" type="password" autocomplete="current-password" required /></label>
            <button class="primary" id="sign-in-submit" disabled=${busy} aria-busy=${busy ? 'true' : undefined}>${t('sign_in.submit')}</button>
          </form>
          ${passkeys &&
          html`<div class="stack passkey">
            <p class="muted or">${t('onboarding.sign_in.or')}</p>
            <button type="button" id="passkey-sign-in" disabled=${busy} onClick=${passkey}>${t('onboarding.sign_in.passkey')}</button>
          </div>`}
          <${Problem} id="sign-in-error" text=${error} />`
      : html`<${SecondFactor} types=${types} onSignedIn=${onSignedIn} />`}
  </section>`;
}

/** The second step of a login waiting at mfa_authenticate: a security key (when the account has one) or a code. */
export function SecondFactor({ types, onSignedIn }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const byKey = types.includes('webauthn') && webauthnAvailable();
  // The password form is gone: the keyboard goes on where the next step is.
  const first = useRef(null);
  useEffect(() => first.current?.focus(), []);

  async function submitCode(event) {
    event.preventDefault();
    setBusy(true);
    const result = await call('POST', `${AUTH}/auth/2fa/authenticate`, { code: String(new FormData(event.target).get('code')).trim() });
    setBusy(false);
    if (result.http === 200) return onSignedIn();
    setError(errorText(result.body));
  }

  async function key() {
    setBusy(true);
    const { result, error: failed } = await withKey(`${AUTH}/auth/webauthn/authenticate`);
    setBusy(false);
    if (result?.http === 200) return onSignedIn();
    setError(failed ?? errorText(result.body));
  }

  return html`<div class="second-factor">
    ${byKey &&
    html`<div class="stack">
      <p>${t('onboarding.sign_in.key_prompt')}</p>
      <button type="button" class="primary" id="use-key" ref=${byKey ? first : undefined} disabled=${busy} aria-busy=${busy ? 'true' : undefined} onClick=${key}>${t('onboarding.sign_in.use_key')}</button>
      <p class="muted or">${t('onboarding.sign_in.or_code')}</p>
    </div>`}
    <form class="stack" onSubmit=${submitCode}>
      ${!byKey && html`<p>${t('sign_in.code_prompt')}</p>`}
      <label>${t('sign_in.code')} <input name="code" id="code" ref=${byKey ? undefined : first} autocomplete="one-time-code" inputmode="numeric" required /></label>
      <button class=${byKey ? '' : 'primary'} id="code-submit" disabled=${busy} aria-busy=${busy ? 'true' : undefined}>${t('sign_in.continue')}</button>
    </form>
    <${Problem} id="sign-in-error" text=${error} />
  </div>`;
}
