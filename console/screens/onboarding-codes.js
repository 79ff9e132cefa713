// The recovery codes made with the first second factor, shown once here:
// copy or download them, say they are stored, then on to the console
// (GET /account/authenticators/recovery-codes).
import { useEffect, useMemo, useState } from '../vendor/hooks.js';
import { AUTH, errorText } from '../lib/api.js';
import { t } from '../lib/i18n.js';
import { html, Notice, Problem } from '../lib/ui.js';

export function RecoveryCodes({ confirmed, onDone }) {
  const [codes, setCodes] = useState(null);
  const [problem, setProblem] = useState('');
  const [stored, setStored] = useState(false);
  const [copied, setCopied] = useState('');

  useEffect(() => {
    confirmed('GET', `${AUTH}/account/authenticators/recovery-codes`).then((result) => {
      if (result === null) return setCodes([]);
      // None made (recovery_codes not in MFA_SUPPORTED_TYPES): nothing to keep.
      if (result.http === 404) return onDone();
      if (result.http !== 200) return setProblem(errorText(result.body));
      setCodes(result.body.data.unused_codes ?? []);
    });
  }, []);

  const text = useMemo(() => (codes ?? []).join('\n') + '\n', [codes]);
  const download = useMemo(() => (codes?.length ? URL.createObjectURL(new Blob([text], { type: 'text/plain' })) : null), [text]);
  useEffect(() => () => download && URL.revokeObjectURL(download), [download]);

  async function copy() {
    await navigator.clipboard.writeText(text);
    setCopied(t('onboarding.copied'));
  }

  return html`<div class="recovery-codes">
    <h2>${t('onboarding.codes.title')}</h2>
    <p class="notice" role="status" id="onboarding-enrolled">${t('onboarding.enrolled')}</p>
    <${Problem} id="onboarding-problem" text=${problem} />
    ${codes &&
    html`${codes.length > 0
        ? html`<p>${t('onboarding.codes.intro')}</p>
            <ol id="recovery-codes" class="codes">
              ${codes.map((code) => html`<li><code>${code}</code></li>`)}
            </ol>
            <div class="actions">
              <button type="button" id="codes-copy" onClick=${copy}>${t('onboarding.copy')}</button>
              <a class="button" id="codes-download" href=${download} download="recovery-codes.txt">${t('onboarding.codes.download')}</a>
              <${Notice} id="codes-copied" text=${copied} />
            </div>
            <label class="check"><input type="checkbox" id="codes-stored" checked=${stored} onChange=${(e) => setStored(e.target.checked)} /> ${t('onboarding.codes.stored')}</label>`
        : html`<p class="muted">${t('onboarding.codes.shown_before')}</p>`}
      <div class="actions">
        <button class="primary" id="onboarding-done" disabled=${codes.length > 0 && !stored} onClick=${onDone}>${t('onboarding.done')}</button>
      </div>`}
  </div>`;
}
