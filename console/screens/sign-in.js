// Sign-in: the browser login mounted on the admin listener, password first,
// then the second factor the admin role asks for.
import { useState } from '../vendor/hooks.js';
import { AUTH, call, errorText } from '../lib/api.js';
import { Brand } from '../lib/brand.js';
import { t } from '../lib/i18n.js';
import { html, Problem } from '../lib/ui.js';

export function SignIn({ onSignedIn }) {
  const [stage, setStage] = useState('password');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

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
      return setStage('code');
    }
    if (result.http === 409) return onSignedIn();
    setError(result.http === 401 ? t('sign_in.refused') : errorText(result.body));
  }

  async function submitCode(event) {
    event.preventDefault();
    setBusy(true);
    const result = await call('POST', `${AUTH}/auth/2fa/authenticate`, { code: String(new FormData(event.target).get('code')).trim() });
    setBusy(false);
    if (result.http === 200) return onSignedIn();
    setError(errorText(result.body));
  }

  return html`<section id="sign-in">
    <${Brand} />
    <h1>${t('sign_in.title')}</h1>
    ${stage === 'password'
      ? html`<form class="stack" onSubmit=${submitPassword}>
          <label>${t('sign_in.login')} <input name="login" id="login" autocomplete="username" required /></label>
          <label>${t('sign_in.password')} <input name="password" id="password" type="password" autocomplete="current-password" required /></label>
          <button class="primary" id="sign-in-submit" disabled=${busy} aria-busy=${busy ? 'true' : undefined}>${t('sign_in.submit')}</button>
        </form>`
      : html`<form class="stack" onSubmit=${submitCode}>
          <p>${t('sign_in.code_prompt')}</p>
          <label>${t('sign_in.code')} <input name="code" id="code" autocomplete="one-time-code" inputmode="numeric" required /></label>
          <button class="primary" id="code-submit" disabled=${busy} aria-busy=${busy ? 'true' : undefined}>${t('sign_in.continue')}</button>
        </form>`}
    <${Problem} id="sign-in-error" text=${error} />
  </section>`;
}
