// A secret the server shows in one answer only (a client secret, an initial
// access token, an admin API key): read-only text that wraps (all of it shows on a phone), a
// copy button, and the warning that it cannot be shown again (only its hash
// is kept).
import { useState } from '../vendor/hooks.js';
import { t } from '../lib/i18n.js';
import { html, Notice } from '../lib/ui.js';

export function ShownOnce({ id, label, value, warning = t('clients.shown_once') }) {
  const [copied, setCopied] = useState('');
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(t('secret.copied'));
    } catch {
      // No clipboard (an insecure origin, a refused permission): select it for the keyboard's copy.
      document.getElementById(id).select();
      setCopied(t('secret.copy_by_hand'));
    }
  }
  return html`<div class="shown-once">
    <label for=${id}>${label}</label>
    <div class="inline">
      <textarea id=${id} class="secret" readonly rows="1" spellcheck="false" value=${value} onFocus=${(e) => e.target.select()}></textarea>
      <button type="button" id=${`${id}-copy`} onClick=${copy}>${t('secret.copy')}</button>
    </div>
    <p class="warning" id=${`${id}-warning`}>${warning}</p>
    <${Notice} id=${`${id}-copied`} text=${copied} />
  </div>`;
}
