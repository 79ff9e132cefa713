// The public keys of a private_key_jwt client, for its registration and for
// replacing them (PUT /idp/clients/:id/keys): a JWK Set pasted as JSON, or
// the https URL that serves it.
import { t } from '../lib/i18n.js';
import { html } from '../lib/ui.js';
import { fieldError } from './client-fields.js';

export const KEY_PARAMS = ['jwks', 'jwks_uri'];
export const noKeys = () => ({ source: 'jwks', jwks: '', jwks_uri: '' });

/** {body} for the API, or {errors} when the pasted JWK Set is no JSON object. */
export function keysBody(held) {
  if (held.source === 'jwks_uri') return { body: { jwks_uri: held.jwks_uri.trim() } };
  let jwks;
  try {
    jwks = JSON.parse(held.jwks);
  } catch {
    return { errors: { jwks: [t('clients.keys.not_json')] } };
  }
  // A single key pasted on its own is the set of that key.
  if (jwks && typeof jwks === 'object' && !Array.isArray(jwks) && !('keys' in jwks) && 'kty' in jwks) jwks = { keys: [jwks] };
  return { body: { jwks } };
}

export function KeysFields({ held, set, errors, prefix }) {
  const jwks = fieldError(errors, prefix, 'jwks');
  const uri = fieldError(errors, prefix, 'jwks_uri');
  return html`<fieldset class="keys" id=${`${prefix}-keys`}>
    <legend>${t('clients.keys.title')}</legend>
    <div class="inline">
      ${['jwks', 'jwks_uri'].map(
        (source) => html`<label class="check"><input type="radio" name=${`${prefix}-key-source`} id=${`${prefix}-source-${source}`} checked=${held.source === source} onChange=${() => set('source', source)} /> ${t(`clients.keys.source.${source}`)}</label>`,
      )}
    </div>
    ${held.source === 'jwks'
      ? html`<label>${t('clients.field.jwks')}
          <textarea id=${`${prefix}-jwks`} rows="6" class="mono" spellcheck="false" placeholder='{"keys": [{"kty": "EC", "crv": "P-256", "x": "…", "y": "…", "kid": "…"}]}' value=${held.jwks} onInput=${(e) => set('jwks', e.target.value)} ...${jwks.attributes}></textarea>
          <span class="muted small">${t('clients.help.jwks')}</span>
          ${jwks.shown}
        </label>`
      : html`<label>${t('clients.field.jwks_uri')}
          <input id=${`${prefix}-jwks_uri`} type="url" autocomplete="off" spellcheck="false" placeholder="https://app.example.com/.well-known/jwks.json" value=${held.jwks_uri} onInput=${(e) => set('jwks_uri', e.target.value)} ...${uri.attributes} />
          ${uri.shown}
        </label>`}
  </fieldset>`;
}
