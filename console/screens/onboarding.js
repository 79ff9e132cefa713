// First sign-in of an administrator without a second factor: the server
// lets such a session do nothing but enrol one (403 mfa_enrollment_required
// everywhere else), so instead of the console this leads through it: an
// authenticator app (QR code and the secret to type) or a security key or
// passkey, then the recovery codes, shown once, then the console. The first
// factor enrolled here counts as this session's second factor.
import { useEffect, useState } from '../vendor/hooks.js';
import { AUTH, call } from '../lib/api.js';
import { Brand } from '../lib/brand.js';
import { t } from '../lib/i18n.js';
import { html } from '../lib/ui.js';
import { Reauthenticate } from './reauthenticate.js';
import { RecoveryCodes } from './onboarding-codes.js';
import { KeySetup } from './onboarding-key.js';
import { TotpSetup } from './onboarding-totp.js';

/** `types`: what the server lets this account enrol (totp, webauthn). */
export function Onboarding({ types, onDone, onSignOut }) {
  const offered = ['totp', 'webauthn'].filter((type) => types.includes(type));
  const [step, setStep] = useState(offered.length === 1 ? offered[0] : 'choose');
  const [reauth, setReauth] = useState(null);
  const who = useSignedInAs();

  /** A call of the enrolment that may ask for the password first (ACCOUNT_REAUTHENTICATION_TIMEOUT); null when cancelled. */
  async function confirmed(method, url, body) {
    for (;;) {
      const result = await call(method, url, body);
      const flows = result.body?.data?.flows;
      if (!(result.http === 401 && result.body?.meta?.is_authenticated && flows?.length)) return result;
      const ok = await new Promise((resolve) => setReauth({ flows, resolve }));
      setReauth(null);
      if (!ok) return null;
    }
  }

  const enrolled = () => setStep('codes');
  const back = offered.length > 1 ? () => setStep('choose') : null;
  return html`<section id="onboarding" class="onboarding" data-step=${step}>
    <${Brand} />
    <h1>${t('onboarding.title')}</h1>
    <p class="muted" id="onboarding-who">${who && t('onboarding.signed_in_as', { who })}</p>
    ${step === 'choose' && html`<${Choose} onChoose=${setStep} />`}
    ${step === 'totp' && html`<${TotpSetup} confirmed=${confirmed} onEnrolled=${enrolled} onBack=${back} />`}
    ${step === 'webauthn' && html`<${KeySetup} confirmed=${confirmed} onEnrolled=${enrolled} onBack=${back} />`}
    ${step === 'codes' && html`<${RecoveryCodes} confirmed=${confirmed} onDone=${onDone} />`}
    ${step !== 'codes' && html`<p class="muted onboarding-leave">${t('onboarding.leave')} <button type="button" id="onboarding-sign-out" class="link" onClick=${onSignOut}>${t('sign_out')}</button></p>`}
    ${reauth && html`<${Reauthenticate} request=${reauth} onDone=${(ok) => reauth.resolve(ok)} />`}
  </section>`;
}

function Choose({ onChoose }) {
  return html`<div>
    <p>${t('onboarding.intro')}</p>
    <div class="choices">
      <button type="button" class="choice" id="choose-totp" onClick=${() => onChoose('totp')}>
        <strong>${t('onboarding.totp.choice')}</strong><span class="muted">${t('onboarding.totp.choice_hint')}</span>
      </button>
      <button type="button" class="choice" id="choose-webauthn" onClick=${() => onChoose('webauthn')}>
        <strong>${t('onboarding.key.choice')}</strong><span class="muted">${t('onboarding.key.choice_hint')}</span>
      </button>
    </div>
  </div>`;
}

/** The session's user, for the words "signed in as …". */
function useSignedInAs() {
  const [who, setWho] = useState('');
  useEffect(() => {
    call('GET', `${AUTH}/auth/session`).then((r) => {
      const user = r.body?.data?.user;
      if (user) setWho(user.email || user.username || user.display || '');
    });
  }, []);
  return who;
}
