// The users list over the admin API's GET /users: a search that picks the
// exact, indexed filter the text is for (an address, an id, a phone number;
// else part of a name), filters, an order, the total and pages back and
// forth. All of it lives in the URL (#/users?q=…&active=true&order=…&cursor=…),
// so a reload, a link or the back button shows the same page; the last list
// shown is also kept for the user page's way back (usersListHref).
import { useEffect, useState } from '../vendor/hooks.js';
import { API, call, errorsByParam } from '../lib/api.js';
import { number, t } from '../lib/i18n.js';
import { href, navigate } from '../lib/router.js';
import { Badge, html, Time } from '../lib/ui.js';

const LIST_KEY = 'console:users-list';
const DEFAULT_ORDER = '-created_at';
const ORDERS = ['-created_at', 'created_at', '-last_login_at', 'last_login_at', 'id'];
const SIZES = ['25', '50', '100'];
const DEFAULT_SIZE = '50';
// Each filter: its query key (the admin API's too) and the values it offers beside "any".
const FILTERS = [
  { key: 'active', label: 'users.filter.state', options: [['true', 'users.filter.active'], ['false', 'users.filter.disabled']] },
  { key: 'admin', label: 'users.filter.role', options: [['true', 'users.filter.admin'], ['false', 'users.filter.not_admin']] },
  { key: 'verified', label: 'users.filter.address', options: [['true', 'users.filter.verified'], ['false', 'users.filter.unverified']] },
];

/** The hash of the users list last shown (with its search, filters and page), for a link back to it. */
export function usersListHref() {
  return sessionStorage.getItem(LIST_KEY) ?? href('users');
}

/** Which filter of the API the search text is for: the exact ones run on unique indexes, `q` reads every user. */
export function searchKind(text) {
  if (/^[^\s@]+@[^\s@]+$/.test(text)) return 'email';
  if (/^\d{1,15}$/.test(text)) return 'id';
  if (/^\+[\d\s().-]+$/.test(text)) return 'phone';
  return 'q';
}

/** The GET /users query of a place in the list. */
function apiQuery(place) {
  const params = new URLSearchParams({ limit: place.limit ?? DEFAULT_SIZE, order: place.order ?? DEFAULT_ORDER, include_total: 'true' });
  const text = (place.q ?? '').trim();
  if (text) params.set(searchKind(text), text);
  for (const { key } of FILTERS) if (place[key]) params.set(key, place[key]);
  if (place.cursor) params.set('cursor', place.cursor);
  return params;
}

export function Users({ query: place }) {
  const [text, setText] = useState(place.q ?? '');
  const [answer, setAnswer] = useState(null);
  const [errors, setErrors] = useState({});
  // Asking again for the same place (Search pressed twice) reads the list afresh.
  const [asked, setAsked] = useState(0);
  const listed = href('users', place);

  useEffect(() => setText(place.q ?? ''), [place.q]);
  useEffect(() => {
    sessionStorage.setItem(LIST_KEY, listed);
    let current = true;
    call('GET', `${API}/users?${apiQuery(place)}`).then((result) => {
      if (!current) return;
      if (result.http === 200) return setErrors({}), setAnswer(result.body);
      setAnswer(null);
      setErrors(errorsByParam(result.body));
    });
    return () => void (current = false);
  }, [listed, asked]);

  /** A change of search, filter, order or size: back to the first page, in place of the current entry of the history. */
  const refine = (changes) => {
    const target = { ...place, ...changes, cursor: undefined, page: undefined };
    if (href('users', target) === listed) return setAsked((n) => n + 1);
    navigate('users', target, { replace: true });
  };
  const page = Number(place.page ?? 1);
  const size = Number(place.limit ?? DEFAULT_SIZE);
  const total = answer?.meta.total;
  const pages = total === undefined ? null : Math.max(1, Math.ceil(total / size));
  const filtered = Boolean(place.q || FILTERS.some(({ key }) => place[key]));
  const kind = searchKind(text.trim());
  // The search's own refusal (a phone number that is none, say) shows under the box.
  const searchError = errors[kind] ?? errors.q ?? errors.email ?? errors.phone ?? errors.id;
  const otherError = Object.entries(errors).filter(([param]) => !['q', 'email', 'phone', 'id'].includes(param)).flatMap(([, messages]) => messages);

  return html`<section id="users">
    <div class="users-head">
      <h1>${t('users.title')}</h1>
      <a class="button primary" id="new-user" href=${href('users/new')}>${t('users.new')}</a>
    </div>
    <form class="inline" role="search" id="search" onSubmit=${(e) => (e.preventDefault(), refine({ q: text.trim() }))}>
      <label class="grow">
        <span class="visually-hidden">${t('users.search.label')}</span>
        <input id="search-text" type="search" placeholder=${t('users.search.placeholder')} value=${text} onInput=${(e) => setText(e.target.value)}
          aria-invalid=${searchError ? 'true' : undefined} aria-describedby=${searchError ? 'search-error' : 'search-kind'} />
      </label>
      <button class="primary" id="search-submit">${t('users.search.submit')}</button>
    </form>
    ${searchError ? html`<p class="error" id="search-error" role="alert">${searchError.join(' ')}</p>` : text.trim() && html`<p class="muted small" id="search-kind">${t(`users.search.kind.${kind}`)}</p>`}
    <div class="users-controls">
      ${FILTERS.map(
        ({ key, label, options }) => html`<label>${t(label)}
          <select id=${`filter-${key}`} value=${place[key] ?? ''} onChange=${(e) => refine({ [key]: e.target.value })}>
            <option value="">${t('users.filter.any')}</option>
            ${options.map(([value, words]) => html`<option value=${value}>${t(words)}</option>`)}
          </select>
        </label>`,
      )}
      <label>${t('users.sort.label')}
        <select id="sort" value=${place.order ?? DEFAULT_ORDER} onChange=${(e) => refine({ order: e.target.value === DEFAULT_ORDER ? undefined : e.target.value })}>
          ${ORDERS.map((o) => html`<option value=${o}>${t(`users.sort.${o}`)}</option>`)}
        </select>
      </label>
      <label>${t('users.page_size')}
        <select id="page-size" value=${String(size)} onChange=${(e) => refine({ limit: e.target.value === DEFAULT_SIZE ? undefined : e.target.value })}>
          ${SIZES.map((s) => html`<option value=${s}>${s}</option>`)}
        </select>
      </label>
    </div>
    ${otherError.length > 0 && html`<p class="error" role="alert" id="users-error">${otherError.join(' ')}</p>`}
    ${answer && html`<${Results} answer=${answer} place=${place} page=${page} pages=${pages} filtered=${filtered} onClear=${() => (setText(''), navigate('users', { order: place.order, limit: place.limit }, { replace: true }))} />`}
  </section>`;
}

function Results({ answer, place, page, pages, filtered, onClear }) {
  const users = answer.data;
  const { next_cursor: next, prev_cursor: prev, total } = answer.meta;
  // Back to page 1 without a cursor: the first page exactly, whatever came and went since.
  const previous = () => navigate('users', { ...place, cursor: page <= 2 ? undefined : prev, page: page <= 2 ? undefined : String(page - 1) });
  const forward = () => navigate('users', { ...place, cursor: next, page: String(page + 1) });
  return html`
    <p class="users-total" id="users-total" aria-live="polite">${t('users.total', { count: total })}${pages > 1 ? html` · <span id="users-page">${t('users.page', { page: number(Math.min(page, pages)), pages: number(pages) })}</span>` : ''}</p>
    ${users.length === 0
      ? html`<div class="users-empty" id="users-none"><p>${t(filtered ? 'users.none' : 'users.none_yet')}</p>${filtered && html`<button type="button" id="clear-filters" onClick=${onClear}>${t('users.clear')}</button>`}</div>`
      : html`<div class="scroll"><table id="results">
          <thead><tr><th scope="col">${t('users.column.user')}</th><th scope="col">${t('column.username')}</th><th scope="col">${t('column.state')}</th><th scope="col">${t('column.joined')}</th><th scope="col">${t('column.last_login')}</th></tr></thead>
          <tbody>${users.map((u) => html`<${Row} user=${u} />`)}</tbody>
        </table></div>`}
    ${(next || prev || page > 1) &&
    html`<nav class="pager" aria-label=${t('users.pages')}>
      <button type="button" id="page-prev" disabled=${page <= 1 && !prev} onClick=${previous}>${t('users.previous')}</button>
      <button type="button" id="page-next" disabled=${!next} onClick=${forward}>${t('users.next')}</button>
    </nav>`}`;
}

function Row({ user: u }) {
  const name = [u.first_name, u.last_name].filter(Boolean).join(' ');
  const link = `#/users/${u.id}`;
  return html`<tr data-user=${u.id}>
    <td class="who">
      <a href=${link}>${u.email ?? u.username ?? t('user.fallback', { id: u.id })}</a>
      <span class="muted small">${name ? `${name} · ` : ''}#${u.id}</span>
    </td>
    <td data-label=${t('column.username')}>${u.username ?? html`<span class="muted">–</span>`}</td>
    <td class="badges">
      ${u.is_active ? html`<${Badge}>${t('state.active')}<//>` : html`<${Badge} tone="off">${t('state.disabled')}<//>`}
      ${u.is_admin && html`<${Badge} tone="admin">${t('role.admin')}<//>`}
      ${u.email && (u.email_verified ? html`<${Badge} tone="ok">${t('users.badge.verified')}<//>` : html`<${Badge} tone="warn">${t('users.badge.unverified')}<//>`)}
    </td>
    <td data-label=${t('column.joined')}><${Time} at=${u.created_at} /></td>
    <td data-label=${t('column.last_login')}>${u.last_login_at ? html`<${Time} at=${u.last_login_at} />` : html`<span class="muted">${t('users.never')}</span>`}</td>
  </tr>`;
}
