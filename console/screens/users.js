// The users list: a search box over the admin API's GET /users (an id, a
// phone number, else part of a name or address), its text kept in the URL.
import { useCallback, useEffect, useState } from '../vendor/hooks.js';
import { API, call, errorText } from '../lib/api.js';
import { t } from '../lib/i18n.js';
import { navigate } from '../lib/router.js';
import { Badge, Button, html, Problem, Time } from '../lib/ui.js';

export function Users({ query: place }) {
  const [query, setQuery] = useState(place.q ?? '');
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

  useEffect(() => void load(place.q ?? ''), [place.q]);

  return html`<section id="search">
    <h1>${t('search.title')}</h1>
    <form class="inline" role="search" onSubmit=${(e) => (e.preventDefault(), navigate('users', { q: query.trim() }, { replace: true }), load(query))}>
      <input id="search-text" aria-label=${t("search.title")} placeholder=${t("search.placeholder")} value=${query} onInput=${(e) => setQuery(e.target.value)} />
      <button class="primary" id="search-submit">${t('search.submit')}</button>
    </form>
    <${Problem} text=${error} />
    ${users &&
    html`<div class="scroll"><table id="results">
      <thead><tr><th>${t('column.id')}</th><th>${t('column.email')}</th><th>${t('column.username')}</th><th>${t('column.state')}</th><th>${t('column.joined')}</th><th>${t('column.last_login')}</th></tr></thead>
      <tbody>
        ${users.map(
          (u) => html`<tr data-user=${u.id}>
            <td><a href=${`#/users/${u.id}`}>${u.id}</a></td>
            <td><a href=${`#/users/${u.id}`}>${u.email ?? '–'}</a></td>
            <td>${u.username ?? '–'}</td>
            <td>${u.is_active ? html`<${Badge}>${t('state.active')}<//>` : html`<${Badge} tone="off">${t('state.disabled')}<//>`} ${u.is_admin && html`<${Badge}>${t('role.admin')}<//>`}</td>
            <td><${Time} at=${u.created_at} /></td>
            <td><${Time} at=${u.last_login_at} /></td>
          </tr>`,
        )}
      </tbody>
    </table></div>
    ${users.length === 0 && html`<p class="muted">${t('search.none')}</p>`}
    ${next && html`<${Button} id="more" onClick=${() => load(query, next)}>${t('search.more')}<//>`}`}
  </section>`;
}
