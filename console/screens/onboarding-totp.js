// Enrolment with an authenticator app: the server's new secret as a QR code
// (an SVG data URL the API draws) and as text to type, then a current code
// of it activates TOTP (GET/POST /account/authenticators/totp).
import { useEffect, useState } from '../vendor/hooks.js';
import { AUTH, call, errorsByParam, errorText } from '../lib/api.js';
import { t } from '../lib/i18n.js';
import { html, Notice, Problem } from '../lib/ui.js';
import { enrolProblem } from './onboarding-problems.js';

const URL_TOTP = `${AUTH}/account/authenticators/totp`;

/** The secret in groups of four, as apps show it and people type it. */
const grouped = (secret) => secret.replace(/(.{4})(?=.)/g, '$1 ');

export function TotpSetup({ confirmed, onEnrolled, onBack }) {
  const [offer, setOffer] = useState(null);
  const [problem, setProblem] = useState('');
  const [codeError, setCodeError] = useState('');
  const [copied, setCopied] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    call('GET', URL_TOTP).then((result) => {
      if (result.http === 404 && result.body?.meta?.secret) setOffer(result.body.meta);
      else setProblem(enrolProblem(result.body));
    });
  }, []);

  async function copy() {
    await navigator.clipboard.writeText(offer.secret);
    setCopied(t('onboarding.copied'));
  }

  async function submit(event) {
    event.preventDefault();
    setBusy(true);
    const result = await confirmed('POST', URL_TOTP, { code: String(new FormData(event.target).get('code')).trim() });
    setBusy(false);
    if (result === null) return;
    if (result.http === 200) return onEnrolled();
    const byParam = errorsByParam(result.body);
    setCodeError((byParam.code ?? []).join(' '));
    setProblem(byParam.code ? '' : enrolProblem(result.body) || errorText(result.body));
  }

  return html`<div class="totp-setup">
    <h2>${t('onboarding.totp.title')}</h2>
    <${Problem} id="onboarding-problem" text=${problem} />
    ${offer &&
    html`<ol class="steps">
      <li>${t('onboarding.totp.step_app')}</li>
      <li>
        ${t('onboarding.totp.step_scan')}
        <div class="qr-box">
          <img id="totp-qr" class="qr" src=${offer.qr_code_url} alt=${t('onboarding.totp.qr_alt')} width="200" height="200" />
          <div class="secret">
            <span class="muted">${t('onboarding.totp.cannot_scan')}</span>
            <code id="totp-secret">${grouped(offer.secret)}</code>
            <div class="actions">
              <button type="button" id="totp-copy" onClick=${copy}>${t('onboarding.copy')}</button>
              <${Notice} id="totp-copied" text=${copied} />
            </div>
          </div>
        </div>
      </li>
      <li>
        <form class="stack" onSubmit=${submit}>
          <label
            >${t('onboarding.totp.step_code')}
            <input
              name="code"
              id="totp-code"
              autocomplete="one-time-code"
              inputmode="numeric"
              required
              aria-invalid=${codeError ? 'true' : undefined}
              aria-describedby=${codeError ? 'totp-code-error' : undefined}
          /></label>
          <${Problem} id="totp-code-error" text=${codeError} />
          <div class="actions">
            <button class="primary" id="totp-submit" disabled=${busy} aria-busy=${busy ? 'true' : undefined}>${t('onboarding.totp.activate')}</button>
            ${onBack && html`<button type="button" id="onboarding-back" onClick=${onBack}>${t('onboarding.back')}</button>`}
          </div>
        </form>
      </li>
    </ol>`}
  </div>`;
}
