// A user's names and ACCOUNT_PROFILE_SCHEMA fields, edited in one form.
import { useState } from '../vendor/hooks.js';
import { API, errorsByParam } from '../lib/api.js';
import { t } from '../lib/i18n.js';
import { html } from '../lib/ui.js';

/** A field's stored value as its input holds it: text for text, number and select inputs, true/false for a checkbox. */
function inputValue(field, value) {
  if (field.type === 'boolean' && field.enum === undefined) return value === true;
  return value === undefined || value === null ? '' : String(value);
}

/** What the input holds, as the API takes it: null for an empty input; a number that does not parse stays text, for the server to refuse. */
function apiValue(field, held) {
  if (typeof held === 'boolean') return held;
  if (held === '') return null;
  if (field.type === 'string') return held;
  if (field.type === 'boolean') return held === 'true';
  const number = Number(held);
  return Number.isFinite(number) ? number : held;
}

/**
 * The user's names and ACCOUNT_PROFILE_SCHEMA fields (as GET /profile-fields
 * declares them), edited in one form; Save sends one PATCH of only what
 * changed, and each refusal shows next to the input its param names.
 */
export function ProfileForm({ user, fields, change, onSaved }) {
  const [saved, setSaved] = useState(user);
  const heldOf = (u) => ({
    first_name: u.first_name ?? '',
    last_name: u.last_name ?? '',
    ...Object.fromEntries(fields.map((f) => [`profile.${f.name}`, inputValue(f, u.profile?.[f.name])])),
  });
  const [held, setHeld] = useState(() => heldOf(user));
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState({});
  const [notice, setNotice] = useState('');

  async function submit(event) {
    event.preventDefault();
    const before = heldOf(saved);
    const body = {};
    for (const name of ['first_name', 'last_name']) if (held[name] !== before[name]) body[name] = held[name];
    const profile = {};
    for (const f of fields) {
      const key = `profile.${f.name}`;
      if (held[key] !== before[key]) profile[f.name] = apiValue(f, held[key]);
    }
    if (Object.keys(profile).length > 0) body.profile = profile;
    setErrors({});
    setNotice('');
    if (Object.keys(body).length === 0) return setNotice(t('profile.unchanged'));
    setBusy(true);
    const result = await change('PATCH', `${API}/users/${user.id}`, body);
    setBusy(false);
    if (!result) return;
    if (result.http >= 400) {
      const byParam = {};
      for (const [param, messages] of Object.entries(errorsByParam(result.body))) (byParam[param in held ? param : ''] ??= []).push(...messages);
      return setErrors(byParam);
    }
    setSaved(result.body.data);
    setHeld(heldOf(result.body.data));
    setNotice(t('profile.saved'));
    onSaved();
  }

  const set = (key, value) => setHeld((previous) => ({ ...previous, [key]: value }));
  const id = (key) => (key.startsWith('profile.') ? `profile-field-${key.slice('profile.'.length)}` : `profile-${key}`);
  const problem = (key) => errors[key] && html`<span class="error" id=${`${id(key)}-error`}>${errors[key].join(' ')}</span>`;
  const described = (key) => ({ 'aria-invalid': errors[key] ? 'true' : undefined, 'aria-describedby': errors[key] ? `${id(key)}-error` : undefined });

  function input(f) {
    const key = `profile.${f.name}`;
    const common = { id: id(key), name: key, required: f.required, ...described(key) };
    if (f.enum !== undefined)
      return html`<select ...${common} value=${held[key]} onChange=${(e) => set(key, e.target.value)}>
        <option value="">${t('profile.no_value')}</option>
        ${f.enum.map((v) => html`<option value=${String(v)}>${String(v)}</option>`)}
      </select>`;
    if (f.type === 'boolean') return html`<input type="checkbox" ...${common} required=${false} checked=${held[key]} onChange=${(e) => set(key, e.target.checked)} />`;
    if (f.type === 'string')
      return html`<input ...${common} value=${held[key]} maxlength=${f.max_length} minlength=${f.min_length} onInput=${(e) => set(key, e.target.value)} />`;
    return html`<input type="number" ...${common} value=${held[key]} min=${f.minimum} max=${f.maximum} step=${f.type === 'integer' ? '1' : 'any'} onInput=${(e) => set(key, e.target.value)} />`;
  }

  const row = (key, label, control, check = false) => html`<label class=${check ? 'check' : undefined}>${label} ${control} ${problem(key)}</label>`;

  return html`<section id="profile">
    <h2>${t('profile.title')}</h2>
    <form class="stack" id="profile-form" onSubmit=${submit}>
      ${row('first_name', t('profile.first_name'), html`<input id="profile-first_name" name="first_name" autocomplete="off" maxlength="150" value=${held.first_name} ...${described('first_name')} onInput=${(e) => set('first_name', e.target.value)} />`)}
      ${row('last_name', t('profile.last_name'), html`<input id="profile-last_name" name="last_name" autocomplete="off" maxlength="150" value=${held.last_name} ...${described('last_name')} onInput=${(e) => set('last_name', e.target.value)} />`)}
      ${fields.map((f) => row(`profile.${f.name}`, f.title ?? f.name, input(f), f.type === 'boolean' && f.enum === undefined))}
      <div class="inline"><button class="primary" id="profile-save" disabled=${busy} aria-busy=${busy ? 'true' : undefined}>${t('profile.save')}</button></div>
    </form>
    ${errors[''] && html`<p class="error" role="alert" id="profile-error">${errors[''].join(' ')}</p>`}
    ${notice && html`<p class="notice" role="status" id="profile-notice">${notice}</p>`}
  </section>`;
}
