// Registering an OpenID client (POST /idp/clients): its name, how it
// authenticates (which makes it confidential or public), an optional
// client_id, its keys for private_key_jwt, and the fields it shares with an
// edit. Refusals show by their field; the secret of a client that has one is
// shown once, then on to the client's page.
import { useState } from '../vendor/hooks.js';
import { API, errorsByParam } from '../lib/api.js';
import { nameOf, t } from '../lib/i18n.js';
import { href, navigate } from '../lib/router.js';
import { Button, html, Problem } from '../lib/ui.js';
import { bodyOf, ClientFields, FIELD_PARAMS, fieldError, heldOf, NameField, placeErrors } from './client-fields.js';
import { KEY_PARAMS, KeysFields, keysBody, noKeys } from './client-keys.js';
import { ShownOnce } from './shown-once.js';

const METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'];
const KNOWN = [...FIELD_PARAMS, ...KEY_PARAMS, 'id', 'token_endpoint_auth_method', 'type'];

export function ClientCreate({ change }) {
  const [held, setHeld] = useState(() => ({ ...heldOf(null), id: '', method: 'client_secret_basic' }));
  const [keys, setKeys] = useState(noKeys);
  const [errors, setErrors] = useState({});
  const [made, setMade] = useState(null);
  const set = (key, value) => setHeld((previous) => ({ ...previous, [key]: value }));
  const setKey = (key, value) => setKeys((previous) => ({ ...previous, [key]: value }));

  async function submit() {
    const body = { ...bodyOf(held), type: held.method === 'none' ? 'public' : 'confidential', token_endpoint_auth_method: held.method };
    if (held.id.trim()) body.id = held.id.trim();
    if (held.method === 'private_key_jwt') {
      const keyed = keysBody(keys);
      if (keyed.errors) return setErrors(keyed.errors);
      Object.assign(body, keyed.body);
    }
    setErrors({});
    const result = await change('POST', `${API}/idp/clients`, body);
    if (!result) return;
    if (result.http >= 400) {
      const placed = placeErrors(errorsByParam(result.body), KNOWN);
      // The type follows the method chosen here: its refusal is the method's.
      if (placed.type) (placed.token_endpoint_auth_method ??= []).push(...placed.type);
      return setErrors(placed);
    }
    const client = result.body.data;
    if (!result.body.meta?.client_secret) return navigate(`clients/${encodeURIComponent(client.id)}`);
    setMade({ client, secret: result.body.meta.client_secret });
  }

  if (made)
    return html`<section id="client-created">
      <h1>${t('clients.created.title', { name: made.client.name })}</h1>
      <dl class="facts"><dt>${t('clients.field.client_id')}</dt><dd><code id="created-client-id">${made.client.id}</code></dd></dl>
      <${ShownOnce} id="created-secret" label=${t('clients.field.client_secret')} value=${made.secret} />
      <div class="actions"><a class="button primary" id="continue-to-client" href=${href(`clients/${encodeURIComponent(made.client.id)}`)}>${t('clients.created.continue')}</a></div>
    </section>`;

  const id = fieldError(errors, 'client', 'id');
  const method = fieldError(errors, 'client', 'token_endpoint_auth_method');
  return html`<section id="client-create">
    <p><a href=${href('clients')} id="create-back">${t('clients.back')}</a></p>
    <h1>${t('clients.create.title')}</h1>
    <form class="client-form" id="client-form" novalidate onSubmit=${(e) => e.preventDefault()}>
      <fieldset>
        <legend>${t('clients.group.identity')}</legend>
        <${NameField} held=${held} set=${set} errors=${errors} prefix="client" />
        <label>${t('clients.field.id')}
          <input id="client-id" autocomplete="off" spellcheck="false" maxlength="100" value=${held.id} onInput=${(e) => set('id', e.target.value)} ...${id.attributes} />
          <span class="muted small">${t('clients.help.id')}</span>
          ${id.shown}
        </label>
        <fieldset class="choices-list" id="client-token_endpoint_auth_method" ...${method.attributes}>
          <legend>${t('clients.field.token_endpoint_auth_method')}</legend>
          ${METHODS.map(
            (m) => html`<label class="check option"><input type="radio" name="method" id=${`client-method-${m}`} value=${m} checked=${held.method === m} onChange=${() => set('method', m)} />
              <span><strong>${nameOf('client_auth', m)}</strong><span class="muted small">${t(`clients.auth_help.${m}`)}</span></span></label>`,
          )}
          ${method.shown}
        </fieldset>
        ${held.method === 'private_key_jwt' && html`<${KeysFields} held=${keys} set=${setKey} errors=${errors} prefix="client" />`}
      </fieldset>
      <${ClientFields} held=${held} set=${set} errors=${errors} prefix="client" />
      <div class="form-end">
        <${Problem} id="client-error" text=${errors['']?.join(' ')} />
        <div class="actions">
          <${Button} type="submit" class="primary" id="client-submit" busyLabel=${t('busy')} onClick=${submit}>${t('clients.create.submit')}<//>
          <a href=${href('clients')} id="create-cancel">${t('cancel')}</a>
        </div>
      </div>
    </form>
  </section>`;
}
