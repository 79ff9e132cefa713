// The registration fields an OpenID client's create and edit forms share
// (the admin API's UpdateBody): held as the form's text (lists one per line,
// scopes space-separated), turned into the API's body, each refusal shown
// by the input its `param` names.
import { nameOf, t } from '../lib/i18n.js';
import { html } from '../lib/ui.js';

export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code', 'urn:ietf:params:oauth:grant-type:token-exchange'];
export const RESPONSE_TYPES = ['code', 'id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token', 'none'];
const LISTS = ['redirect_uris', 'post_logout_redirect_uris', 'cors_origins'];
const WORDS = ['scopes', 'default_scopes'];
const FLAGS = ['allow_uri_wildcards', 'skip_consent', 'resource_server', 'require_pushed_authorization_requests'];
/** Every param these fields show a refusal for. */
export const FIELD_PARAMS = ['name', ...LISTS, ...WORDS, 'grant_types', 'response_types', 'backchannel_logout_uri', ...FLAGS];

/**
 * The form's values of a client as the API shows it (or of a new one).
 * `response_types` null means "what the grant types imply", the API's default,
 * until the operator ticks one.
 */
export function heldOf(client) {
  return {
    name: client?.name ?? '',
    ...Object.fromEntries(LISTS.map((key) => [key, (client?.[key] ?? []).join('\n')])),
    scopes: (client?.scopes ?? ['openid']).join(' '),
    default_scopes: (client?.default_scopes ?? []).join(' '),
    grant_types: client?.grant_types ?? ['authorization_code'],
    response_types: client?.response_types ?? null,
    backchannel_logout_uri: client?.backchannel_logout_uri ?? '',
    ...Object.fromEntries(FLAGS.map((key) => [key, client?.[key] ?? false])),
  };
}

const lines = (text) => text.split('\n').map((s) => s.trim()).filter(Boolean);
const words = (text) => text.split(/\s+/).filter(Boolean);

/** The API's body of the form's values. */
export function bodyOf(held) {
  const body = { name: held.name.trim() };
  for (const key of LISTS) body[key] = lines(held[key]);
  for (const key of WORDS) body[key] = words(held[key]);
  body.grant_types = held.grant_types;
  if (held.response_types !== null) body.response_types = held.response_types;
  body.backchannel_logout_uri = held.backchannel_logout_uri.trim() || null;
  for (const key of FLAGS) body[key] = held[key];
  return body;
}

/** The refusals by param, those no input of `known` shows under '' (above the buttons). */
export function placeErrors(byParam, known) {
  const placed = {};
  for (const [param, messages] of Object.entries(byParam)) (placed[known.includes(param) ? param : ''] ??= []).push(...messages);
  return placed;
}

/** The refusal of `key`, with the attributes tying its input to it. */
export function fieldError(errors, prefix, key) {
  const id = `${prefix}-${key}-error`;
  return {
    attributes: errors[key] ? { 'aria-invalid': 'true', 'aria-describedby': id } : {},
    shown: errors[key] ? html`<span class="error" id=${id}>${errors[key].join(' ')}</span>` : null,
  };
}

/** The shared fields, in groups; `set(key, value)` changes one. */
export function ClientFields({ held, set, errors, prefix }) {
  const error = (key) => fieldError(errors, prefix, key);
  const text = (key, { hint, ...attributes } = {}) => {
    const { attributes: described, shown } = error(key);
    return html`<label>${t(`clients.field.${key}`)}
      <input id=${`${prefix}-${key}`} autocomplete="off" spellcheck="false" value=${held[key]} onInput=${(e) => set(key, e.target.value)} ...${described} ...${attributes} />
      ${hint && html`<span class="muted small">${hint}</span>`}
      ${shown}
    </label>`;
  };
  const list = (key) => {
    const { attributes, shown } = error(key);
    return html`<label>${t(`clients.field.${key}`)}
      <textarea id=${`${prefix}-${key}`} rows="3" spellcheck="false" value=${held[key]} onInput=${(e) => set(key, e.target.value)} ...${attributes}></textarea>
      <span class="muted small">${t(`clients.help.${key}`)}</span>
      ${shown}
    </label>`;
  };
  const flag = (key) => {
    const { attributes, shown } = error(key);
    return html`<div><label class="check"><input type="checkbox" id=${`${prefix}-${key}`} checked=${held[key]} onChange=${(e) => set(key, e.target.checked)} ...${attributes} /> ${t(`clients.field.${key}`)}</label>
      <span class="muted small hint">${t(`clients.help.${key}`)}</span>${shown}</div>`;
  };
  const grants = error('grant_types');
  const responses = error('response_types');
  // Until the operator picks response types, they follow the grant types (the API's default).
  const responseTypes = held.response_types ?? (held.grant_types.includes('authorization_code') ? ['code'] : []);
  const toggle = (values, value, on) => (on ? [...values.filter((v) => v !== value), value] : values.filter((v) => v !== value));
  return html`
    <fieldset>
      <legend>${t('clients.group.grants')}</legend>
      <fieldset class="choices-list" id=${`${prefix}-grant_types`} ...${grants.attributes}>
        <legend>${t('clients.field.grant_types')}</legend>
        ${GRANT_TYPES.map(
          (g) => html`<label class="check"><input type="checkbox" name="grant_types" value=${g} checked=${held.grant_types.includes(g)} onChange=${(e) => set('grant_types', toggle(held.grant_types, g, e.target.checked))} /> ${nameOf('grant_type', g)}</label>`,
        )}
        ${grants.shown}
      </fieldset>
      <details class="choices-list" open=${held.response_types !== null || Boolean(errors.response_types)}>
        <summary>${t('clients.field.response_types')}: ${responseTypes.map((r) => nameOf('response_type', r)).join(', ') || t('clients.none')}</summary>
        <fieldset id=${`${prefix}-response_types`} ...${responses.attributes}>
          <legend class="visually-hidden">${t('clients.field.response_types')}</legend>
          ${RESPONSE_TYPES.map(
            (r) => html`<label class="check"><input type="checkbox" name="response_types" value=${r} checked=${responseTypes.includes(r)} onChange=${(e) => set('response_types', toggle(responseTypes, r, e.target.checked))} /> <span>${nameOf('response_type', r)} <code class="muted small">${r}</code></span></label>`,
          )}
        </fieldset>
        ${responses.shown}
      </details>
      ${text('scopes', { hint: t('clients.help.scopes') })}
      ${text('default_scopes', { hint: t('clients.help.default_scopes') })}
    </fieldset>
    <fieldset>
      <legend>${t('clients.group.redirects')}</legend>
      ${list('redirect_uris')}
      ${list('post_logout_redirect_uris')}
      ${list('cors_origins')}
      ${flag('allow_uri_wildcards')}
      ${text('backchannel_logout_uri', { type: 'url', hint: t('clients.help.backchannel_logout_uri') })}
    </fieldset>
    <fieldset>
      <legend>${t('clients.group.options')}</legend>
      ${flag('skip_consent')}
      ${flag('resource_server')}
      ${flag('require_pushed_authorization_requests')}
    </fieldset>`;
}

/** A client's name field, on its own: it heads the form. */
export function NameField({ held, set, errors, prefix }) {
  const { attributes, shown } = fieldError(errors, prefix, 'name');
  return html`<label>${t('clients.field.name')}
    <input id=${`${prefix}-name`} autocomplete="off" maxlength="100" value=${held.name} onInput=${(e) => set('name', e.target.value)} ...${attributes} />
    ${shown}
  </label>`;
}
