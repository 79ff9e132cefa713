// The audit trail: GET /audit-events filtered by types, user, actor, outcome
// and time, a page at a time, every filter and the page kept in the URL;
// "Export CSV" downloads GET /audit-events/export with the same filters.
import { useEffect, useState } from '../vendor/hooks.js';
import { API, call, errorText, read } from '../lib/api.js';
import { nameOf, t, timeZone } from '../lib/i18n.js';
import { href, navigate } from '../lib/router.js';
import { Badge, html, Problem, Time } from '../lib/ui.js';
import { TypePicker } from './audit-types.js';

const PAGE = 50;
const ACTORS = ['user', 'admin_console', 'admin_api', 'cli', 'registration'];
/** The URL's filters, as GET /audit-events names them (`user` is typed text: an id or an address). */
const FILTERS = ['type', 'user', 'actor', 'actor_id', 'outcome', 'since', 'until'];

/** An ISO instant as a datetime-local input shows it (the browser's zone), and back. */
function localInput(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
const isoOf = (local) => (local ? new Date(local).toISOString() : '');

/** The API's filter parameters for a place's query, with `user` made a user id (an address is looked up first); null when no such user. */
async function apiFilters(query) {
  const params = new URLSearchParams();
  for (const name of ['type', 'actor', 'actor_id', 'outcome', 'since', 'until']) if (query[name]) params.set(name, query[name]);
  const user = (query.user ?? '').trim();
  if (/^\d+$/.test(user)) params.set('user_id', user);
  else if (user) {
    const found = await read(`/users?email=${encodeURIComponent(user)}&limit=1`);
    if (found.data.length === 0) return null;
    params.set('user_id', String(found.data[0].id));
  }
  return params;
}

function ActorName({ event }) {
  const { actor, actor_id: id } = event.detail ?? {};
  if (!actor) return html`<span class="muted">${t('audit.actor_user')}</span>`;
  const name = nameOf('actor', actor);
  if (actor === 'admin_console' && id !== undefined) return html`${name} · <a href=${href(`users/${id}`)}>${t('audit.user_number', { id })}</a>`;
  if (actor === 'admin_api' && id !== undefined) return html`${name} · ${t('audit.key_number', { id })}`;
  return name;
}

function UserCell({ event, users }) {
  if (event.user_id === null) return html`<span class="muted">${event.detail?.identifier ?? '–'}</span>`;
  const user = users[event.user_id];
  const label = user ? (user.email ?? user.username ?? t('audit.user_number', { id: event.user_id })) : t('audit.user_number', { id: event.user_id });
  return html`<a href=${href(`users/${event.user_id}`)} class="user">${label}</a>${user === null ? html` <span class="muted">${t('audit.deleted')}</span>` : ''}`;
}

const detailValue = (value) => (Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value));

function Detail({ event }) {
  const entries = Object.entries(event.detail ?? {}).filter(([key]) => key !== 'actor' && key !== 'actor_id');
  return html`<details class="detail">
    <summary>${t('audit.detail')}</summary>
    <dl class="facts">
      ${entries.map(([key, value]) => html`<dt>${t(`audit.field.${key}`) === `audit.field.${key}` ? key : t(`audit.field.${key}`)}</dt><dd>${detailValue(value)}</dd>`)}
      <dt>${t('audit.field.ip')}</dt><dd>${event.ip || '–'}</dd>
      <dt>${t('audit.field.user_agent')}</dt><dd class="ua">${event.user_agent || '–'}</dd>
      <dt>${t('audit.field.event_id')}</dt><dd><code>${event.event_id}</code></dd>
    </dl>
  </details>`;
}

function Filters({ query, types }) {
  const [form, setForm] = useState(() => ({ ...query, since: localInput(query.since), until: localInput(query.until) }));
  useEffect(() => setForm({ ...query, since: localInput(query.since), until: localInput(query.until) }), [FILTERS.map((f) => query[f]).join('|')]);
  const set = (name) => (e) => setForm({ ...form, [name]: e.target.value });
  const apply = (e) => {
    e.preventDefault();
    const next = Object.fromEntries(FILTERS.map((f) => [f, (form[f] ?? '').trim()]));
    next.since = isoOf(form.since);
    next.until = isoOf(form.until);
    if (next.actor !== 'admin_api' && next.actor !== 'admin_console') next.actor_id = '';
    navigate('audit', next, { replace: true });
  };
  const chosen = (form.type ?? '').split(',').filter(Boolean);
  const withId = form.actor === 'admin_api' || form.actor === 'admin_console';
  return html`<form id="audit-filters" class="filters" onSubmit=${apply}>
    <${TypePicker} types=${types} chosen=${chosen} onChange=${(list) => setForm({ ...form, type: list.join(',') })} />
    <label>${t('audit.filter.user')}
      <input id="filter-user" value=${form.user ?? ''} onInput=${set('user')} placeholder=${t('audit.filter.user_hint')} autocomplete="off" />
    </label>
    <label>${t('audit.filter.actor')}
      <select id="filter-actor" value=${form.actor ?? ''} onChange=${set('actor')}>
        <option value="">${t('audit.anyone')}</option>
        ${ACTORS.map((a) => html`<option value=${a}>${a === 'user' ? t('audit.actor_user') : nameOf('actor', a)}</option>`)}
      </select>
    </label>
    ${withId &&
    html`<label>${form.actor === 'admin_api' ? t('audit.filter.key_id') : t('audit.filter.admin_id')}
      <input id="filter-actor-id" inputmode="numeric" pattern="[0-9]*" value=${form.actor_id ?? ''} onInput=${set('actor_id')} />
    </label>`}
    <label>${t('audit.filter.outcome')}
      <select id="filter-outcome" value=${form.outcome ?? ''} onChange=${set('outcome')}>
        <option value="">${t('audit.any_outcome')}</option>
        <option value="success">${nameOf('outcome', 'success')}</option>
        <option value="failure">${nameOf('outcome', 'failure')}</option>
      </select>
    </label>
    <label>${t('audit.filter.since')}
      <input id="filter-since" type="datetime-local" value=${form.since ?? ''} onInput=${set('since')} aria-describedby="filter-zone" />
    </label>
    <label>${t('audit.filter.until')}
      <input id="filter-until" type="datetime-local" value=${form.until ?? ''} onInput=${set('until')} aria-describedby="filter-zone" />
    </label>
    <p id="filter-zone" class="muted zone">${t('audit.zone', { zone: timeZone })}</p>
    <div class="actions">
      <button class="primary" id="filter-apply">${t('audit.apply')}</button>
      <a id="filter-clear" href=${href('audit')}>${t('audit.clear')}</a>
    </div>
  </form>`;
}

export function Audit({ query }) {
  const [types, setTypes] = useState([]);
  const [events, setEvents] = useState(null);
  const [next, setNext] = useState(null);
  const [users, setUsers] = useState({});
  const [error, setError] = useState('');
  const [exportHref, setExportHref] = useState('');
  /** Cursors of the pages before this one, oldest first ('0' for the first page), so "Newer" can go back. */
  const trail = query.trail ? query.trail.split('.') : [];

  useEffect(() => {
    read('/audit-event-types').then((answer) => setTypes(answer.data.types), (e) => setError(e.message));
  }, []);

  useEffect(() => {
    let live = true;
    (async () => {
      let params;
      try {
        params = await apiFilters(query);
      } catch (e) {
        return live && setError(e.message);
      }
      if (!live) return;
      if (params === null) {
        setEvents([]);
        setNext(null);
        return setError(t('audit.no_such_user', { email: query.user }));
      }
      setExportHref(`${API}/audit-events/export?${params}`);
      params.set('limit', String(PAGE));
      if (query.cursor) params.set('cursor', query.cursor);
      const result = await call('GET', `${API}/audit-events?${params}`);
      if (!live) return;
      if (result.http !== 200) return setError(errorText(result.body));
      setError('');
      setEvents(result.body.data);
      setNext(result.body.meta.next_cursor);
      // The users of the page, by their address (each asked once; null: deleted).
      const ids = [...new Set(result.body.data.map((e) => e.user_id).filter((id) => id !== null))];
      const found = await Promise.all(ids.map((id) => call('GET', `${API}/users/${id}`).then((r) => [id, r.http === 200 ? r.body.data : r.http === 404 ? null : undefined])));
      if (live) setUsers(Object.fromEntries(found.filter(([, u]) => u !== undefined)));
    })();
    return () => void (live = false);
  }, [JSON.stringify(query)]);

  const filters = Object.fromEntries(FILTERS.map((f) => [f, query[f]]));
  const older = () => navigate('audit', { ...filters, cursor: next, trail: [...trail, query.cursor ?? '0'].join('.') });
  const newer = () => navigate('audit', { ...filters, cursor: trail.at(-1) === '0' ? undefined : trail.at(-1), trail: trail.slice(0, -1).join('.') || undefined });
  const filtered = FILTERS.some((f) => query[f]);

  return html`<section id="audit">
    <div class="heading">
      <h1>${t('audit.title')}</h1>
      ${exportHref && html`<a id="audit-export" class="button" href=${exportHref} download>${t('audit.export')}</a>`}
    </div>
    <${Filters} query=${query} types=${types} />
    <${Problem} id="audit-error" text=${error} />
    ${events &&
    html`<p class="muted" id="audit-page">${t('audit.page', { page: trail.length + 1, count: events.length })}${filtered ? ` · ${t('audit.filtered')}` : ''}</p>
      <div class="scroll"><table id="audit-events">
        <thead><tr><th>${t('audit.column.time')}</th><th>${t('audit.column.event')}</th><th>${t('audit.column.user')}</th><th>${t('audit.column.actor')}</th><th>${t('audit.column.outcome')}</th><th>${t('audit.column.detail')}</th></tr></thead>
        <tbody>
          ${events.map(
            (e) => html`<tr data-event=${e.event_id} data-type=${e.type}>
              <td class="time"><${Time} at=${e.occurred_at} /></td>
              <td>${nameOf('event', e.type)}</td>
              <td><${UserCell} event=${e} users=${users} /></td>
              <td><${ActorName} event=${e} /></td>
              <td>${e.outcome === 'failure' ? html`<${Badge} tone="off">${nameOf('outcome', 'failure')}<//>` : html`<${Badge} tone="ok">${nameOf('outcome', 'success')}<//>`}</td>
              <td><${Detail} event=${e} /></td>
            </tr>`,
          )}
        </tbody>
      </table></div>
      ${events.length === 0 && html`<p class="muted" id="audit-none">${t('audit.none')}</p>`}
      <div class="actions pager">
        ${query.cursor && html`<button type="button" id="audit-newer" onClick=${newer}>${t('audit.newer')}</button>`}
        ${next && html`<button type="button" id="audit-older" onClick=${older}>${t('audit.older')}</button>`}
      </div>`}
  </section>`;
}
