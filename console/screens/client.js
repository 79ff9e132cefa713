// One OpenID client (GET /idp/clients/:client_id): every setting, an edit of
// its registration (PATCH, only what changed), a new secret (the old one
// stops at once; the new one shown once), new keys for a private_key_jwt
// client (PUT .../keys), and removing it. Each change that breaks the client
// asks first, naming it.
import { useCallback, useEffect, useState } from '../vendor/hooks.js';
import { API, call, errorsByParam, errorText } from '../lib/api.js';
import { nameOf, t } from '../lib/i18n.js';
import { href, navigate } from '../lib/router.js';
import { Button, ConfirmButton, html, Notice, Problem, Time } from '../lib/ui.js';
import { bodyOf, ClientFields, FIELD_PARAMS, heldOf, NameField, placeErrors } from './client-fields.js';
import { KEY_PARAMS, KeysFields, keysBody, noKeys } from './client-keys.js';
import { ShownOnce } from './shown-once.js';

const usesSecret = (c) => c.type === 'confidential' && c.token_endpoint_auth_method !== 'private_key_jwt';

export function ClientPage({ params, change }) {
  const id = params.id;
  const url = `${API}/idp/clients/${encodeURIComponent(id)}`;
  const [client, setClient] = useState(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [editing, setEditing] = useState(false);

  const load = useCallback(async () => {
    const result = await call('GET', url);
    if (result.http !== 200) return setError(errorText(result.body));
    setClient(result.body.data);
  }, [url]);
  useEffect(() => void load(), [load]);

  if (!client) return error ? html`<${Problem} id="client-load-error" text=${error} />` : html`<p>${t('loading')}</p>`;
  const props = { client, url, change, reload: load };
  return html`<div id="client-page" data-client=${client.id}>
    <p><a href=${href('clients')} id="client-back">${t('clients.back')}</a></p>
    <section id="client-settings">
      <div class="heading">
        <h1 id="client-name">${client.name}</h1>
        ${!editing && html`<button type="button" id="edit-client" onClick=${() => (setNotice(''), setEditing(true))}>${t('clients.edit')}</button>`}
      </div>
      <${Notice} id="client-notice" text=${notice} />
      ${editing
        ? html`<${EditForm} ...${props} onDone=${(saved) => (setEditing(false), setNotice(saved ? t('clients.saved') : ''))} />`
        : html`<${Facts} client=${client} />`}
    </section>
    <div class="user-columns">
      ${usesSecret(client) && html`<${Secret} ...${props} />`}
      ${client.token_endpoint_auth_method === 'private_key_jwt' && html`<${Keys} ...${props} />`}
      ${client.type === 'public' && html`<section id="client-no-secret"><h2>${t('clients.secret.title')}</h2><p class="muted">${t('clients.secret.public')}</p></section>`}
      <${Delete} ...${props} />
    </div>
  </div>`;
}

function Facts({ client: c }) {
  const list = (values, empty = t('clients.none')) =>
    values.length ? html`<ul class="plain">${values.map((v) => html`<li>${v}</li>`)}</ul>` : html`<span class="muted">${empty}</span>`;
  const yes = (value) => (value ? t('clients.yes') : t('clients.no'));
  const keys = c.jwks_uri
    ? html`<code>${c.jwks_uri}</code>`
    : c.jwks && list(c.jwks.keys.map((k) => `${k.kty}${k.crv ? ` ${k.crv}` : ''}${k.kid ? ` · ${k.kid}` : ''}`));
  return html`<dl class="facts" id="client-facts">
    <dt>${t('clients.field.client_id')}</dt><dd><code id="client-id-shown">${c.id}</code></dd>
    <dt>${t('clients.field.type')}</dt><dd>${nameOf('client_type', c.type)}</dd>
    <dt>${t('clients.field.token_endpoint_auth_method')}</dt><dd id="client-auth">${nameOf('client_auth', c.token_endpoint_auth_method)}<span class="muted small block">${t(`clients.auth_help.${c.token_endpoint_auth_method}`)}</span></dd>
    ${keys && html`<dt>${t('clients.keys.title')}</dt><dd id="client-keys-shown">${keys}</dd>`}
    <dt>${t('clients.column.created')}</dt><dd><${Time} at=${c.created_at} /></dd>
    <dt>${t('clients.field.grant_types')}</dt><dd id="client-grants">${list(c.grant_types.map((g) => nameOf('grant_type', g)))}</dd>
    <dt>${t('clients.field.response_types')}</dt><dd>${list(c.response_types.map((r) => nameOf('response_type', r)))}</dd>
    <dt>${t('clients.field.scopes')}</dt><dd id="client-scopes">${c.scopes.join(' ') || html`<span class="muted">${t('clients.none')}</span>`}</dd>
    <dt>${t('clients.field.default_scopes')}</dt><dd>${c.default_scopes.join(' ') || html`<span class="muted">${t('clients.none')}</span>`}</dd>
    <dt>${t('clients.field.redirect_uris')}</dt><dd id="client-redirects" class="uri">${list(c.redirect_uris)}</dd>
    <dt>${t('clients.field.post_logout_redirect_uris')}</dt><dd class="uri">${list(c.post_logout_redirect_uris)}</dd>
    <dt>${t('clients.field.cors_origins')}</dt><dd class="uri">${list(c.cors_origins)}</dd>
    <dt>${t('clients.field.allow_uri_wildcards')}</dt><dd>${yes(c.allow_uri_wildcards)}</dd>
    <dt>${t('clients.field.backchannel_logout_uri')}</dt><dd class="uri">${c.backchannel_logout_uri ?? html`<span class="muted">${t('clients.none')}</span>`}</dd>
    <dt>${t('clients.field.skip_consent')}</dt><dd id="client-skip-consent">${yes(c.skip_consent)}</dd>
    <dt>${t('clients.field.resource_server')}</dt><dd>${yes(c.resource_server)}</dd>
    <dt>${t('clients.field.require_pushed_authorization_requests')}</dt><dd>${yes(c.require_pushed_authorization_requests)}</dd>
  </dl>`;
}

function EditForm({ client, url, change, reload, onDone }) {
  const [held, setHeld] = useState(() => heldOf(client));
  const [errors, setErrors] = useState({});
  const set = (key, value) => setHeld((previous) => ({ ...previous, [key]: value }));
  async function save() {
    const before = bodyOf(heldOf(client));
    const body = Object.fromEntries(Object.entries(bodyOf(held)).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key])));
    if (Object.keys(body).length === 0) return onDone(false);
    setErrors({});
    const result = await change('PATCH', url, body);
    if (!result) return;
    if (result.http >= 400) return setErrors(placeErrors(errorsByParam(result.body), FIELD_PARAMS));
    await reload();
    onDone(true);
  }
  return html`<form class="client-form" id="client-edit-form" novalidate onSubmit=${(e) => e.preventDefault()}>
    <fieldset><legend>${t('clients.group.identity')}</legend><${NameField} held=${held} set=${set} errors=${errors} prefix="edit" /></fieldset>
    <${ClientFields} held=${held} set=${set} errors=${errors} prefix="edit" />
    <div class="form-end">
      <${Problem} id="edit-error" text=${errors['']?.join(' ')} />
      <div class="actions">
        <${Button} type="submit" class="primary" id="edit-save" busyLabel=${t('busy')} onClick=${save}>${t('clients.save')}<//>
        <button type="button" id="edit-cancel" onClick=${() => onDone(false)}>${t('cancel')}</button>
      </div>
    </div>
  </form>`;
}

function Secret({ client, url, change }) {
  const [secret, setSecret] = useState('');
  const [error, setError] = useState('');
  async function rotate() {
    setError('');
    const result = await change('POST', `${url}/rotate-secret`);
    if (!result) return;
    // 409 private_key_jwt_client / public_client: the client has no secret (it changed since this page was read).
    if (result.http >= 400) return setError(errorText(result.body));
    setSecret(result.body.meta.client_secret);
  }
  return html`<section id="client-secret">
    <h2>${t('clients.secret.title')}</h2>
    <p class="muted">${t('clients.secret.explain')}</p>
    ${secret && html`<${ShownOnce} id="rotated-secret" label=${t('clients.secret.new')} value=${secret} />`}
    <${Problem} id="rotate-error" text=${error} />
    <${ConfirmButton} id="rotate-secret" label=${t('clients.secret.rotate')} question=${t('clients.secret.rotate_question', { name: client.name })} onConfirm=${rotate} />
  </section>`;
}

function Keys({ client, url, change, reload }) {
  const [keys, setKeys] = useState(noKeys);
  const [errors, setErrors] = useState({});
  const [notice, setNotice] = useState('');
  const set = (key, value) => setKeys((previous) => ({ ...previous, [key]: value }));
  async function replace() {
    setNotice('');
    const keyed = keysBody(keys);
    if (keyed.errors) return setErrors(keyed.errors);
    setErrors({});
    const result = await change('PUT', `${url}/keys`, keyed.body);
    if (!result) return;
    if (result.http >= 400) return setErrors(placeErrors(errorsByParam(result.body), KEY_PARAMS));
    setKeys(noKeys());
    setNotice(t('clients.keys.replaced'));
    await reload();
  }
  return html`<section id="client-keys">
    <h2>${t('clients.keys.replace_title')}</h2>
    <p class="muted">${t('clients.keys.explain')}</p>
    <form class="stack wide" id="keys-form" novalidate onSubmit=${(e) => e.preventDefault()}>
      <${KeysFields} held=${keys} set=${set} errors=${errors} prefix="keys" />
      <${Problem} id="keys-error" text=${errors['']?.join(' ')} />
      <${Notice} id="keys-notice" text=${notice} />
      <div class="actions">
        <${ConfirmButton} id="replace-keys" label=${t('clients.keys.replace')} question=${t('clients.keys.replace_question', { name: client.name })} onConfirm=${replace} />
      </div>
    </form>
  </section>`;
}

function Delete({ client, url, change }) {
  const [error, setError] = useState('');
  async function remove() {
    setError('');
    const result = await change('DELETE', url);
    if (!result) return;
    if (result.http >= 400) return setError(errorText(result.body));
    navigate('clients');
  }
  return html`<section id="client-delete">
    <h2>${t('clients.delete.title')}</h2>
    <p class="muted">${t('clients.delete.explain')}</p>
    <${Problem} id="delete-client-error" text=${error} />
    <${ConfirmButton} id="delete-client" label=${t('clients.delete.button')} question=${t('clients.delete.question', { name: client.name, id: client.id })} onConfirm=${remove} />
  </section>`;
}
