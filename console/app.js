// The admin console: a small preact + htm page (no build step; both served
// by this server from node_modules). It signs in through the browser login
// mounted on the admin listener (/_service/browser/v1) and reads and changes
// through the admin routes behind that session (/console/api/v1).
import { h, render } from './preact.js';
import { useCallback, useEffect, useState } from './hooks.js';
import htm from './htm.js';
import { IntlMessageFormat } from './intl-messageformat.js';

const html = htm.bind(h);
const AUTH = '/_service/browser/v1';
const API = '/console/api/v1';

// Every word on the page comes from the console's catalogue in the browser's
// language (locales/<language>/console.json, ICU messages), which the server
// picks from Accept-Language as it does for the API's messages.
const catalogue = await fetch('/console/messages', { headers: { accept: 'application/json' }, credentials: 'same-origin' }).then((r) => r.json());
const language = catalogue.data.language;
document.documentElement.lang = language;
const formats = new Map();
/** The message `key` of the catalogue, with its values. */
function t(key, values) {
  let format = formats.get(key);
  if (format === undefined) formats.set(key, (format = new IntlMessageFormat(catalogue.data.messages[key] ?? key, language, undefined, { ignoreTag: true })));
  return format.format(values);
}

function csrfToken() {
  const match = /(?:^|;\s*)admin_csrftoken=([^;]+)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]) : '';
}

/** JSON in, the envelope out: {http, body}. */
async function call(method, url, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrftoken'] = csrfToken();
  const response = await fetch(url, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  let parsed = null;
  try {
    parsed = await response.json();
  } catch {
    parsed = { status: response.status };
  }
  return { http: response.status, body: parsed };
}

/** The site's name and logo, for the title, the header and the sign-in. */
const brand = (await call('GET', '/console/brand/brand.json').catch(() => null))?.body?.data ?? { site_name: '', logo_url: null };
if (brand.site_name) document.title = `${brand.site_name} · ${document.title}`;

function Brand() {
  return html`<span class="brand">${brand.logo_url && html`<img class="logo" src=${brand.logo_url} alt="" />`}<span class="site-name">${brand.site_name}</span></span>`;
}

const errorText = (body) => (body?.errors ?? []).map((e) => e.message).join(' ') || t('request_failed', { status: body?.status ?? '?' });
const when = (iso) => (iso ? new Date(iso).toLocaleString(language) : '–');

/** Where the page is: #/ (search) or #/users/<id>. */
function useRoute() {
  const [hash, setHash] = useState(location.hash || '#/');
  useEffect(() => {
    const onChange = () => setHash(location.hash || '#/');
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  const user = /^#\/users\/(\d+)$/.exec(hash);
  return user ? { page: 'user', id: Number(user[1]) } : { page: 'search' };
}

function SignIn({ onSignedIn }) {
  const [stage, setStage] = useState('password');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submitPassword(event) {
    event.preventDefault();
    const form = new FormData(event.target);
    const login = String(form.get('login')).trim();
    const payload = login.includes('@') ? { email: login } : { username: login };
    setBusy(true);
    const result = await call('POST', `${AUTH}/auth/login`, { ...payload, password: form.get('password') });
    setBusy(false);
    if (result.http === 200) return onSignedIn();
    const pending = result.body?.data?.flows?.find((f) => f.is_pending);
    if (result.http === 401 && pending?.id === 'mfa_authenticate') {
      setError('');
      return setStage('code');
    }
    if (result.http === 409) return onSignedIn();
    setError(result.http === 401 ? t('sign_in.refused') : errorText(result.body));
  }

  async function submitCode(event) {
    event.preventDefault();
    setBusy(true);
    const result = await call('POST', `${AUTH}/auth/2fa/authenticate`, { code: String(new FormData(event.target).get('code')).trim() });
    setBusy(false);
    if (result.http === 200) return onSignedIn();
    setError(errorText(result.body));
  }

  return html`<section id="sign-in">
    <${Brand} />
    <h1>${t('sign_in.title')}</h1>
    ${stage === 'password'
      ? html`<form class="stack" onSubmit=${submitPassword}>
          <label>${t('sign_in.login')} <input name="login" id="login" autocomplete="username" required /></label>
          <label>${t('sign_in.password')} <input name="password" id="password" type="password" autocomplete="current-password" required /></label>
          <button class="primary" id="sign-in-submit" disabled=${busy}>${t('sign_in.submit')}</button>
        </form>`
      : html`<form class="stack" onSubmit=${submitCode}>
          <p>${t('sign_in.code_prompt')}</p>
          <label>${t('sign_in.code')} <input name="code" id="code" autocomplete="one-time-code" inputmode="numeric" required /></label>
          <button class="primary" id="code-submit" disabled=${busy}>${t('sign_in.continue')}</button>
        </form>`}
    ${error && html`<p class="error" role="alert" id="sign-in-error">${error}</p>`}
  </section>`;
}

/** Asks for the password (or a code) again; resolves true once the session is fresh. */
function Reauthenticate({ request, onDone }) {
  const [error, setError] = useState('');
  const flows = request.flows ?? [];
  const byCode = flows.some((f) => f.id === 'mfa_reauthenticate');
  async function submit(event) {
    event.preventDefault();
    const form = new FormData(event.target);
    const password = String(form.get('password') ?? '');
    const result = password
      ? await call('POST', `${AUTH}/auth/reauthenticate`, { password })
      : await call('POST', `${AUTH}/auth/2fa/reauthenticate`, { code: String(form.get('code') ?? '').trim() });
    if (result.http === 200) return onDone(true);
    setError(errorText(result.body));
  }
  return html`<section id="reauthenticate">
    <h2>${t('reauth.title')}</h2>
    <p>${t('reauth.prompt', { method: byCode ? 'code' : 'password' })}</p>
    <form class="stack" onSubmit=${submit}>
      <label>${t('reauth.password')} <input name="password" id="reauth-password" type="password" autocomplete="current-password" /></label>
      ${byCode && html`<label>${t('reauth.code')} <input name="code" id="reauth-code" autocomplete="one-time-code" /></label>`}
      <div class="inline"><button class="primary" id="reauth-submit">${t('reauth.confirm')}</button> <button type="button" onClick=${() => onDone(false)}>${t('cancel')}</button></div>
    </form>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </section>`;
}

function Search() {
  const [query, setQuery] = useState(new URLSearchParams(location.search).get('q') ?? '');
  const [users, setUsers] = useState(null);
  const [next, setNext] = useState(null);
  const [error, setError] = useState('');

  const load = useCallback(async (text, cursor) => {
    const params = new URLSearchParams({ limit: '50' });
    const trimmed = text.trim();
    if (/^\d+$/.test(trimmed)) params.set('id', trimmed);
    else if (/^\+[\d\s().-]+$/.test(trimmed)) params.set('phone', trimmed);
    else if (trimmed) params.set('q', trimmed);
    if (cursor) params.set('cursor', cursor);
    const result = await call('GET', `${API}/users?${params}`);
    if (result.http !== 200) return setError(errorText(result.body));
    setError('');
    setUsers((previous) => (cursor && previous ? [...previous, ...result.body.data] : result.body.data));
    setNext(result.body.meta.next_cursor);
  }, []);

  useEffect(() => void load(query), []);

  return html`<section id="search">
    <h1>${t('search.title')}</h1>
    <form class="inline" onSubmit=${(e) => (e.preventDefault(), load(query))}>
      <input id="search-text" placeholder=${t('search.placeholder')} value=${query} onInput=${(e) => setQuery(e.target.value)} size="40" />
      <button class="primary" id="search-submit">${t('search.submit')}</button>
    </form>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${users &&
    html`<table id="results">
      <thead><tr><th>${t('column.id')}</th><th>${t('column.email')}</th><th>${t('column.username')}</th><th>${t('column.state')}</th><th>${t('column.joined')}</th><th>${t('column.last_login')}</th></tr></thead>
      <tbody>
        ${users.map(
          (u) => html`<tr data-user=${u.id}>
            <td><a href=${`#/users/${u.id}`}>${u.id}</a></td>
            <td><a href=${`#/users/${u.id}`}>${u.email ?? '–'}</a></td>
            <td>${u.username ?? '–'}</td>
            <td>${u.is_active ? html`<span class="badge">${t('state.active')}</span>` : html`<span class="badge off">${t('state.disabled')}</span>`} ${u.is_admin && html`<span class="badge">${t('role.admin')}</span>`}</td>
            <td>${when(u.created_at)}</td>
            <td>${when(u.last_login_at)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
    ${users.length === 0 && html`<p class="muted">${t('search.none')}</p>`}
    ${next && html`<button id="more" onClick=${() => load(query, next)}>${t('search.more')}</button>`}`}
  </section>`;
}

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
function ProfileForm({ user, fields, change, onSaved }) {
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
      for (const e of result.body?.errors ?? []) {
        const at = e.param in held ? e.param : '';
        byParam[at] = [...(byParam[at] ?? []), e.message];
      }
      if (Object.keys(byParam).length === 0) byParam[''] = [errorText(result.body)];
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
      <div class="inline"><button class="primary" id="profile-save" disabled=${busy}>${t('profile.save')}</button></div>
    </form>
    ${errors[''] && html`<p class="error" role="alert" id="profile-error">${errors[''].join(' ')}</p>`}
    ${notice && html`<p class="notice" role="status" id="profile-notice">${notice}</p>`}
  </section>`;
}

function UserPage({ id, change }) {
  const [data, setData] = useState(null);
  const [notice, setNotice] = useState('');
  const [error, setError] = useState('');

  const load = useCallback(async () => {
    const parts = await Promise.all(
      ['', '/sessions', '/authenticators', '/social-accounts'].map((suffix) => call('GET', `${API}/users/${id}${suffix}`)),
    );
    const events = await call('GET', `${API}/audit-events?user_id=${id}&limit=20`);
    const fields = await call('GET', `${API}/profile-fields`);
    if (parts[0].http !== 200) return setError(errorText(parts[0].body));
    setData({ user: parts[0].body.data, fields: fields.body.data ?? [], sessions: parts[1].body.data ?? [], authenticators: parts[2].body.data ?? [], social: parts[3].body.data ?? [], events: events.body.data ?? [] });
  }, [id]);

  useEffect(() => void load(), [load]);

  async function act(method, path, body, done) {
    setNotice('');
    setError('');
    const result = await change(method, `${API}/users/${id}${path}`, body);
    if (!result) return;
    if (result.http >= 400) return setError(errorText(result.body));
    setNotice(done);
    await load();
  }

  if (error && !data) return html`<p class="error" role="alert">${error}</p>`;
  if (!data) return html`<p>${t('loading')}</p>`;
  const { user, fields, sessions, authenticators, social, events } = data;
  return html`<div id="user-page" data-user=${user.id}>
    <p><a href="#/">${t('user.back')}</a></p>
    <section>
      <h1>${user.email ?? user.username ?? t('user.fallback', { id: user.id })}</h1>
      <p>
        <span id="user-state" class=${user.is_active ? 'badge' : 'badge off'}>${user.is_active ? t('state.active') : t('state.disabled')}</span>
        ${user.is_admin && html` <span class="badge">${t('role.admin')}</span>`}
        <span class="muted"> ${t('user.summary', { id: user.id, username: user.username ?? '–', joined: when(user.created_at), lastLogin: when(user.last_login_at), password: user.has_usable_password ? user.password_hasher : t('user.no_password') })}</span>
      </p>
      <div class="inline">
        ${user.is_active
          ? html`<button class="danger" id="deactivate" onClick=${() => act('PATCH', '', { is_active: false }, t('user.deactivated'))}>${t('user.deactivate')}</button>`
          : html`<button id="reactivate" onClick=${() => act('PATCH', '', { is_active: true }, t('user.reactivated'))}>${t('user.reactivate')}</button>`}
        <button id="send-reset" onClick=${() => act('POST', '/password-reset', undefined, t('user.reset_sent'))}>${t('user.send_reset')}</button>
      </div>
      ${notice && html`<p class="notice" role="status" id="notice">${notice}</p>`}
      ${error && html`<p class="error" role="alert" id="error">${error}</p>`}
    </section>
    <${ProfileForm} user=${user} fields=${fields} change=${change} onSaved=${load} />
    <section id="addresses">
      <h2>${t('addresses.title')}</h2>
      <ul>
        ${user.email_addresses.map((a) => html`<li>${a.email} ${a.primary && html`<span class="badge">${t('addresses.primary')}</span>`} <span class="badge">${a.verified ? t('addresses.verified') : t('addresses.unverified')}</span></li>`)}
        ${user.phone && html`<li id="phone">${user.phone.phone} <span class="badge">${user.phone.verified ? t('addresses.verified') : t('addresses.unverified')}</span></li>`}
      </ul>
    </section>
    <section id="sessions">
      <h2>${t('sessions.title', { count: sessions.length })}</h2>
      ${sessions.length > 0 && html`<button class="danger" id="revoke-all" onClick=${() => act('DELETE', '/sessions', undefined, t('sessions.all_revoked'))}>${t('sessions.revoke_all')}</button>`}
      <table>
        <thead><tr><th>${t('column.device')}</th><th>${t('column.ip')}</th><th>${t('column.signed_in')}</th><th>${t('column.last_use')}</th><th></th></tr></thead>
        <tbody>
          ${sessions.map(
            (s) => html`<tr data-session=${s.id}>
              <td class="ua">${s.user_agent || '–'}</td><td>${s.ip || '–'}</td><td>${when(s.created_at)}</td><td>${when(s.last_seen_at)}</td>
              <td><button class="danger" onClick=${() => act('DELETE', `/sessions/${s.id}`, undefined, t('sessions.revoked'))}>${t('sessions.revoke')}</button></td>
            </tr>`,
          )}
        </tbody>
      </table>
    </section>
    <section id="authenticators">
      <h2>${t('factors.title')}</h2>
      ${authenticators.length === 0 && html`<p class="muted">${t('none')}</p>`}
      <table>
        <tbody>
          ${authenticators.map(
            (a) => html`<tr data-authenticator=${a.type}>
              <td>${a.type}${a.name ? ` “${a.name}”` : ''}${a.recovery_codes ? ` ${t('factors.recovery_codes', { unused: a.recovery_codes.unused, total: a.recovery_codes.total })}` : ''}</td>
              <td>${t('factors.added', { when: when(a.created_at) })}</td><td>${t('factors.last_used', { when: when(a.last_used_at) })}</td>
              <td>${a.type !== 'recovery_codes' && html`<button class="danger" onClick=${() => act('DELETE', `/authenticators/${a.id}`, undefined, t('factors.removed'))}>${t('factors.remove')}</button>`}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </section>
    <section id="social">
      <h2>${t('social.title')}</h2>
      ${social.length === 0 && html`<p class="muted">${t('none')}</p>`}
      <ul>${social.map((s) => html`<li>${s.provider}: ${s.display ?? s.uid}</li>`)}</ul>
    </section>
    <section id="events">
      <h2>${t('events.title')}</h2>
      <table>
        <tbody>
          ${events.map(
            (e) => html`<tr data-event=${e.type}>
              <td>${when(e.occurred_at)}</td><td>${e.type}</td><td>${e.outcome}</td><td>${e.detail.actor ?? ''}</td><td>${e.ip}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </section>
  </div>`;
}

function App() {
  const [me, setMe] = useState(undefined);
  const [problem, setProblem] = useState('');
  const [reauth, setReauth] = useState(null);
  const route = useRoute();

  const check = useCallback(async () => {
    const result = await call('GET', `${API}/me`);
    if (result.http === 200) {
      setProblem('');
      return setMe(result.body.data);
    }
    setMe(null);
    const code = result.body?.errors?.[0]?.code;
    if (code === 'admin_required' || code === 'mfa_required') setProblem(errorText(result.body));
  }, []);

  useEffect(() => void check(), [check]);

  async function signOut() {
    await call('DELETE', `${AUTH}/auth/session`);
    setMe(null);
    setProblem('');
  }

  /** A change, asking for reauthentication first when the session's proof is old. */
  const change = useCallback(async (method, url, body) => {
    for (;;) {
      const result = await call(method, url, body);
      if (!(result.http === 401 && result.body?.errors?.[0]?.code === 'reauthentication_required')) return result;
      const confirmed = await new Promise((resolve) => setReauth({ flows: result.body.data?.flows, resolve }));
      setReauth(null);
      if (!confirmed) return null;
    }
  }, []);

  if (me === undefined) return html`<p>${t('loading')}</p>`;
  if (me === null)
    return html`<div>
      ${problem && html`<section><p class="error" role="alert" id="problem">${problem}</p><button onClick=${signOut}>${t('sign_out')}</button></section>`}
      ${!problem && html`<${SignIn} onSignedIn=${check} />`}
    </div>`;
  return html`<div>
    <header><a href="#/"><${Brand} /> ${t('header.title')}</a><span>${me.display} <button id="sign-out" onClick=${signOut}>${t('sign_out')}</button></span></header>
    <main>
      ${reauth && html`<${Reauthenticate} request=${reauth} onDone=${(ok) => reauth.resolve(ok)} />`}
      ${route.page === 'user' ? html`<${UserPage} id=${route.id} change=${change} key=${route.id} />` : html`<${Search} />`}
    </main>
  </div>`;
}

render(html`<${App} />`, document.getElementById('app'));
document.body.dataset.ready = 'yes';
