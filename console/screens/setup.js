// The one-time setup link the CLI prints (`users set-admin <user>
// --setup-link`): #/setup?token=…. The token stays in the page's fragment
// and goes to the server only in a header or a body. The administrator
// chooses a password (an account without one) or confirms theirs, which
// signs them in; the console then leads them through a second factor.
import { useEffect, useState } from '../vendor/hooks.js';
import { AUTH, call, errorsByParam } from '../lib/api.js';
import { Brand } from '../lib/brand.js';
import { t } from '../lib/i18n.js';
import { html, Problem } from '../lib/ui.js';
import { SecondFactor } from './sign-in.js';

const URL_SETUP = `${AUTH}/auth/setup-link`;

async function lookUp(token) {
  const response = await fetch(URL_SETUP, { headers: { accept: 'application/json', 'x-setup-key': token }, credentials: 'same-origin' });
  return { http: response.status, body: await response.json().catch(() => null) };
}

/** `signedIn`: this browser holds a console session already (the link then waits until it signs out). */
export function Setup({ token, signedIn, onSignedIn, onSignOut }) {
  const [user, setUser] = useState(undefined);
  const [errors, setErrors] = useState({});
  const [busy, setBusy] = useState(false);
  const [types, setTypes] = useState(null);

  useEffect(() => {
    if (signedIn) return;
    if (!token) return setUser(null);
    lookUp(token).then((result) => setUser(result.http === 200 ? result.body.data.user : null));
  }, [token, signedIn]);

  async function submit(event) {
    event.preventDefault();
    const form = new FormData(event.target);
    const password = String(form.get('password'));
    if (!user.has_usable_password && password !== String(form.get('repeat'))) return setErrors({ repeat: [t('onboarding.setup.mismatch')] });
    setBusy(true);
    const result = await call('POST', URL_SETUP, { key: token, password });
    setBusy(false);
    if (result.http === 200) return onSignedIn();
    const pending = result.body?.data?.flows?.find((f) => f.is_pending);
    if (result.http === 401 && pending?.id === 'mfa_authenticate') return setTypes(pending.types ?? []);
    setErrors(errorsByParam(result.body));
  }

  const field = (name) => ({
    'aria-invalid': errors[name] ? 'true' : undefined,
    'aria-describedby': errors[name] ? `setup-${name}-error` : undefined,
  });

  let body;
  if (signedIn) {
    body = html`<p id="setup-signed-in">${t('onboarding.setup.signed_in')}</p>
      <button id="setup-sign-out" onClick=${onSignOut}>${t('sign_out')}</button>`;
  } else if (user === undefined) {
    body = html`<p>${t('loading')}</p>`;
  } else if (user === null) {
    body = html`<p class="error" role="alert" id="setup-invalid">${t('onboarding.setup.invalid')}</p>
      <p><a href="#/" id="setup-to-sign-in">${t('onboarding.setup.to_sign_in')}</a></p>`;
  } else if (types) {
    body = html`<${SecondFactor} types=${types} onSignedIn=${onSignedIn} />`;
  } else {
    const fresh = !user.has_usable_password;
    body = html`<p id="setup-intro">${t(fresh ? 'onboarding.setup.intro_new' : 'onboarding.setup.intro_existing', { who: user.display })}</p>
      <form class="stack" onSubmit=${submit}>
        <input type="hidden" name="username" autocomplete="username" value=${user.email ?? user.username ?? ''} />
        <label
          >${t(fresh ? 'onboarding.setup.new_password' : 'onboarding.setup.password')}
          <input name="password" id="setup-password" type="password" autocomplete=${fresh ? 'new-password' : 'current-password'} required ...${field('password')}
        /></label>
        <${Problem} id="setup-password-error" text=${(errors.password ?? []).join(' ')} />
        ${fresh &&
        html`<label>${t('onboarding.setup.repeat')} <input name="repeat" id="setup-repeat" type="password" autocomplete="new-password" required ...${field('repeat')} /></label>
          <${Problem} id="setup-repeat-error" text=${(errors.repeat ?? []).join(' ')} />`}
        <${Problem} id="setup-error" text=${[...(errors[''] ?? []), ...(errors.key ?? [])].join(' ')} />
        <button class="primary" id="setup-submit" disabled=${busy} aria-busy=${busy ? 'true' : undefined}>${t('onboarding.setup.submit')}</button>
      </form>`;
  }
  return html`<section id="setup" class="onboarding">
    <${Brand} />
    <h1>${t('onboarding.setup.title')}</h1>
    ${body}
  </section>`;
}
