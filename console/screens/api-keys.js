// The admin API's keys: GET /api-keys (never a secret), a new one with POST
// /api-keys (its secret shown once, here), a new expiry with PATCH
// /api-keys/{id}, and revoking with POST /api-keys/{id}/revoke. Only the
// console (or the CLI) may make, re-date or revoke keys, never a key itself.
import { useEffect, useState } from '../vendor/hooks.js';
import { API, call, errorsByParam, errorText } from '../lib/api.js';
import { t, timeZone } from '../lib/i18n.js';
import { Badge, Button, ConfirmButton, Dialog, html, Notice, Problem, Time } from '../lib/ui.js';
import { ShownOnce } from './shown-once.js';

const SCOPES = ['read', 'write'];
const TONES = { active: 'ok', expired: 'warn', revoked: 'off' };

/** A datetime-local input's value (the browser's zone) as an ISO instant; null for none. */
const isoOf = (local) => (local ? new Date(local).toISOString() : null);

/** An error beside its input, by the param the API names. */
function FieldError({ id, messages }) {
  return messages ? html`<span class="error" id=${id}>${messages.join(' ')}</span>` : null;
}
const described = (messages, id) => ({ 'aria-invalid': messages ? 'true' : undefined, 'aria-describedby': messages ? id : undefined });

export function ApiKeys({ change }) {
  const [keys, setKeys] = useState(null);
  const [error, setError] = useState('');
  const [secret, setSecret] = useState(null);
  const [notice, setNotice] = useState('');
  const [asked, setAsked] = useState(0);
  const reload = () => setAsked((n) => n + 1);

  useEffect(() => {
    let live = true;
    call('GET', `${API}/api-keys`).then((result) => {
      if (!live) return;
      if (result.http !== 200) return setError(errorText(result.body));
      setError('');
      setKeys(result.body.data);
    });
    return () => void (live = false);
  }, [asked]);

  return html`<section id="api-keys">
    <h1>${t('keys.title')}</h1>
    <p class="muted">${t('keys.intro')}</p>
    <${Problem} id="keys-error" text=${error} />
    <${Notice} id="keys-notice" text=${notice} />
    ${keys && (keys.length === 0
      ? html`<p class="empty" id="keys-none">${t('keys.none')}</p>`
      : html`<div class="scroll"><table id="keys">
          <thead><tr><th>${t('keys.column.name')}</th><th>${t('keys.column.state')}</th><th>${t('keys.column.created')}</th><th>${t('keys.column.last_used')}</th><th>${t('keys.column.expires')}</th><th>${t('keys.column.revoked')}</th><th></th></tr></thead>
          <tbody>${keys.map((key) => html`<${Row} key=${key.id} apiKey=${key} change=${change} reload=${reload} setNotice=${setNotice} />`)}</tbody>
        </table></div>`)}
    <${CreateForm} change=${change} onMade=${(made) => (setSecret(made), setNotice(''), reload())} />
    ${secret && html`<${SecretDialog} made=${secret} onClose=${() => setSecret(null)} />`}
  </section>`;
}

function Row({ apiKey: k, change, reload, setNotice }) {
  const [editing, setEditing] = useState(false);
  const [problem, setProblem] = useState('');
  async function revoke() {
    setProblem('');
    const result = await change('POST', `${API}/api-keys/${k.id}/revoke`);
    if (!result) return;
    if (result.http !== 200) return setProblem(errorText(result.body));
    setNotice(t('keys.revoked', { name: k.name }));
    reload();
  }
  return html`<tr data-key=${k.id} data-state=${k.state}>
    <td class="what"><strong>${k.name}</strong><span class="muted small"><code class="prefix">${k.prefix}…</code> · ${t(`keys.scope.${k.scope}`)}</span></td>
    <td><${Badge} tone=${TONES[k.state]}>${t(`keys.state.${k.state}`)}<//></td>
    <td data-label=${t('keys.column.created')}><${Time} at=${k.created_at} /></td>
    <td data-label=${t('keys.column.last_used')}>${k.last_used_at ? html`<${Time} at=${k.last_used_at} />` : html`<span class="muted">${t('keys.never_used')}</span>`}</td>
    <td data-label=${t('keys.column.expires')} class="expires">${k.expires_at ? html`<${Time} at=${k.expires_at} />` : html`<span class="muted">${t('keys.never_expires')}</span>`}</td>
    <td data-label=${t('keys.column.revoked')}><${Time} at=${k.revoked_at} /></td>
    <td class="row-actions">${k.state !== 'revoked' &&
    html`<div class="actions">
        <button type="button" class="change-expiry" onClick=${() => setEditing(true)}>${t('keys.change_expiry')}</button>
        <${ConfirmButton} label=${t('keys.revoke')} question=${t('keys.revoke_question', { name: k.name, prefix: k.prefix })} onConfirm=${revoke} />
      </div>`}
      <${Problem} id=${`key-error-${k.id}`} text=${problem} />
      ${editing && html`<${ExpiryDialog} apiKey=${k} change=${change} onClose=${() => setEditing(false)} onDone=${() => (setEditing(false), setNotice(t('keys.expiry_changed', { name: k.name })), reload())} />`}
    </td>
  </tr>`;
}

/** The expiry input and the sentence under it saying which zone it is in. */
function ExpiryInput({ id, value, onInput, messages }) {
  return html`<input id=${id} type="datetime-local" value=${value} onInput=${(e) => onInput(e.target.value)} aria-invalid=${messages ? 'true' : undefined} aria-describedby=${messages ? `${id}-error` : `${id}-zone`} />
    <span class="muted small" id=${`${id}-zone`}>${t('keys.zone', { zone: timeZone })}</span>
    <${FieldError} id=${`${id}-error`} messages=${messages} />`;
}

function ExpiryDialog({ apiKey: k, change, onClose, onDone }) {
  const [never, setNever] = useState(k.expires_at === null);
  const [at, setAt] = useState('');
  const [errors, setErrors] = useState({});
  async function save() {
    setErrors({});
    const result = await change('PATCH', `${API}/api-keys/${k.id}`, { expires_at: never ? null : isoOf(at) });
    if (!result) return;
    if (result.http !== 200) return setErrors(errorsByParam(result.body));
    onDone();
  }
  const other = Object.entries(errors).filter(([param]) => param !== 'expires_at').flatMap(([, messages]) => messages);
  return html`<${Dialog} id="expiry-dialog" title=${t('keys.expiry_title', { name: k.name })} onClose=${onClose}>
    <form class="stack" onSubmit=${(e) => e.preventDefault()}>
      <p class="muted">${k.expires_at ? html`${t('keys.expires_now')} <${Time} at=${k.expires_at} />` : t('keys.expires_never_now')}</p>
      <label class="check"><input type="checkbox" id="expiry-never" checked=${never} onChange=${(e) => setNever(e.target.checked)} /> ${t('keys.never_expire')}</label>
      ${!never && html`<label for="expiry-at">${t('keys.expiry_at')}</label><${ExpiryInput} id="expiry-at" value=${at} onInput=${setAt} messages=${errors.expires_at} />`}
      <${Problem} id="expiry-error" text=${other.join(' ')} />
      <div class="actions">
        <${Button} type="submit" id="expiry-save" class="primary" busyLabel=${t('busy')} disabled=${!never && !at} onClick=${save}>${t('keys.expiry_save')}<//>
        <button type="button" id="expiry-cancel" onClick=${onClose}>${t('cancel')}</button>
      </div>
    </form>
  <//>`;
}

function CreateForm({ change, onMade }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState('read');
  const [at, setAt] = useState('');
  const [errors, setErrors] = useState({});
  async function create() {
    setErrors({});
    const body = { name, scope };
    if (at) body.expires_at = isoOf(at);
    const result = await change('POST', `${API}/api-keys`, body);
    if (!result) return;
    if (result.http !== 201) return setErrors(errorsByParam(result.body));
    setName('');
    setScope('read');
    setAt('');
    onMade({ key: result.body.data, secret: result.body.meta.key });
  }
  const other = Object.entries(errors).filter(([param]) => !['name', 'scope', 'expires_at'].includes(param)).flatMap(([, messages]) => messages);
  return html`<form id="key-create" class="stack key-create" onSubmit=${(e) => e.preventDefault()}>
    <h2>${t('keys.create_title')}</h2>
    <label for="key-name">${t('keys.name')}</label>
    <input id="key-name" name="name" autocomplete="off" maxlength="200" value=${name} onInput=${(e) => setName(e.target.value)} placeholder=${t('keys.name_hint')} ...${described(errors.name, 'key-name-error')} />
    <${FieldError} id="key-name-error" messages=${errors.name} />
    <fieldset ...${described(errors.scope, 'key-scope-error')}>
      <legend>${t('keys.scope_label')}</legend>
      ${SCOPES.map(
        (s) => html`<label class="choice-line"><input type="radio" name="scope" id=${`key-scope-${s}`} value=${s} checked=${scope === s} onChange=${() => setScope(s)} aria-describedby=${`key-scope-${s}-says`} />
          <span><strong>${t(`keys.scope.${s}`)}</strong><span class="muted small" id=${`key-scope-${s}-says`}>${t(`keys.scope_says.${s}`)}</span></span></label>`,
      )}
      <${FieldError} id="key-scope-error" messages=${errors.scope} />
    </fieldset>
    <label for="key-expires">${t('keys.expires_optional')}</label>
    <${ExpiryInput} id="key-expires" value=${at} onInput=${setAt} messages=${errors.expires_at} />
    <${Problem} id="key-create-error" text=${other.join(' ')} />
    <div class="actions"><${Button} type="submit" id="key-create-submit" class="primary" busyLabel=${t('busy')} onClick=${create}>${t('keys.create')}<//></div>
  </form>`;
}

/** The new key's secret, once: it is stored only as a hash, so this is the only time anyone sees it. */
function SecretDialog({ made, onClose }) {
  return html`<${Dialog} id="key-secret" title=${t('keys.secret_title', { name: made.key.name })} onClose=${onClose}>
    <${ShownOnce} id="key-secret-value" label=${t('keys.secret_label', { scope: t(`keys.scope.${made.key.scope}`) })} value=${made.secret} warning=${t('keys.secret_warning')} />
    <p class="muted small">${t('keys.secret_use')}</p>
    <div class="actions"><button type="button" class="primary" id="key-secret-done" onClick=${onClose}>${t('keys.secret_done')}</button></div>
  <//>`;
}
