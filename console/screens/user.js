// One user: their state, names and profile fields, addresses, sessions,
// second factors, social accounts and recent audit events, with the
// administrator's actions on each.
import { useCallback, useEffect, useState } from '../vendor/hooks.js';
import { API, call, errorText } from '../lib/api.js';
import { nameOf, t } from '../lib/i18n.js';
import { Badge, Button, ConfirmButton, html, Notice, Problem, Time } from '../lib/ui.js';
import { ProfileForm } from './profile-form.js';

export function UserPage({ params, change }) {
  const id = Number(params.id);
  const [data, setData] = useState(null);
  const [notice, setNotice] = useState('');
  const [error, setError] = useState('');

  const load = useCallback(async () => {
    const parts = await Promise.all(
      ['', '/sessions', '/authenticators', '/social-accounts'].map((suffix) => call('GET', `${API}/users/${id}${suffix}`)),
    );
    const [events, fields] = await Promise.all([call('GET', `${API}/audit-events?user_id=${id}&limit=20`), call('GET', `${API}/profile-fields`)]);
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

  if (error && !data) return html`<${Problem} text=${error} />`;
  if (!data) return html`<p>${t('loading')}</p>`;
  const { user, fields, sessions, authenticators, social, events } = data;
  const who = user.email ?? user.username ?? t('user.fallback', { id: user.id });
  return html`<div id="user-page" data-user=${user.id}>
    <p><a href="#/users">${t('user.back')}</a></p>
    <section>
      <h1>${who}</h1>
      <p>
        <span id="user-state" class=${user.is_active ? 'badge' : 'badge off'}>${user.is_active ? t('state.active') : t('state.disabled')}</span>
        ${user.is_admin && html` <${Badge}>${t('role.admin')}<//>`}
        <span class="muted"> ${t('user.summary', { id: user.id, username: user.username ?? '–', joined: '', lastLogin: '', password: user.has_usable_password ? nameOf('hasher', user.password_hasher) : t('user.no_password') })}</span>
      </p>
      <dl class="facts"><dt>${t('column.joined')}</dt><dd><${Time} at=${user.created_at} /></dd><dt>${t('column.last_login')}</dt><dd><${Time} at=${user.last_login_at} /></dd></dl>
      <div class="actions">
        ${user.is_active
          ? html`<${ConfirmButton} id="deactivate" label=${t('user.deactivate')} question=${t('user.deactivate_question', { user: who })} onConfirm=${() => act('PATCH', '', { is_active: false }, t('user.deactivated'))} />`
          : html`<${Button} id="reactivate" onClick=${() => act('PATCH', '', { is_active: true }, t('user.reactivated'))}>${t('user.reactivate')}<//>`}
        <${Button} id="send-reset" onClick=${() => act('POST', '/password-reset', undefined, t('user.reset_sent'))}>${t('user.send_reset')}<//>
      </div>
      <${Notice} id="notice" text=${notice} />
      <${Problem} id="error" text=${error} />
    </section>
    <${ProfileForm} user=${user} fields=${fields} change=${change} onSaved=${load} />
    <section id="addresses">
      <h2>${t('addresses.title')}</h2>
      <ul>
        ${user.email_addresses.map((a) => html`<li>${a.email} ${a.primary && html`<${Badge}>${t('addresses.primary')}<//>`} <${Badge}>${a.verified ? t('addresses.verified') : t('addresses.unverified')}<//></li>`)}
        ${user.phone && html`<li id="phone">${user.phone.phone} <${Badge}>${user.phone.verified ? t('addresses.verified') : t('addresses.unverified')}<//></li>`}
      </ul>
    </section>
    <section id="sessions">
      <h2>${t('sessions.title', { count: sessions.length })}</h2>
      ${sessions.length > 0 && html`<${ConfirmButton} id="revoke-all" label=${t('sessions.revoke_all')} question=${t('sessions.revoke_all_question', { user: who, count: sessions.length })} onConfirm=${() => act('DELETE', '/sessions', undefined, t('sessions.all_revoked'))} />`}
      <div class="scroll"><table>
        <thead><tr><th>${t('column.device')}</th><th>${t('column.ip')}</th><th>${t('column.signed_in')}</th><th>${t('column.last_use')}</th><th></th></tr></thead>
        <tbody>
          ${sessions.map(
            (s) => html`<tr data-session=${s.id}>
              <td class="ua">${s.user_agent || '–'}</td><td>${s.ip || '–'}</td><td><${Time} at=${s.created_at} /></td><td><${Time} at=${s.last_seen_at} /></td>
              <td><${ConfirmButton} label=${t('sessions.revoke')} question=${t('sessions.revoke_question', { user: who, device: s.user_agent || s.ip || '–' })} onConfirm=${() => act('DELETE', `/sessions/${s.id}`, undefined, t('sessions.revoked'))} /></td>
            </tr>`,
          )}
        </tbody>
      </table></div>
    </section>
    <section id="authenticators">
      <h2>${t('factors.title')}</h2>
      ${authenticators.length === 0 && html`<p class="muted">${t('none')}</p>`}
      <table>
        <tbody>
          ${authenticators.map(
            (a) => html`<tr data-authenticator=${a.type}>
              <td>${nameOf('authenticator', a.type)}${a.name ? ` “${a.name}”` : ''}${a.recovery_codes ? ` ${t('factors.recovery_codes', { unused: a.recovery_codes.unused, total: a.recovery_codes.total })}` : ''}</td>
              <td>${t('factors.added')} <${Time} at=${a.created_at} /></td><td>${t('factors.last_used')} <${Time} at=${a.last_used_at} /></td>
              <td>${a.type !== 'recovery_codes' && html`<${ConfirmButton} label=${t('factors.remove')} question=${t('factors.remove_question', { user: who, factor: nameOf('authenticator', a.type) })} onConfirm=${() => act('DELETE', `/authenticators/${a.id}`, undefined, t('factors.removed'))} />`}</td>
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
      <div class="scroll"><table>
        <tbody>
          ${events.map(
            (e) => html`<tr data-event=${e.type}>
              <td><${Time} at=${e.occurred_at} /></td><td>${nameOf('event', e.type)}</td><td>${nameOf('outcome', e.outcome)}</td><td>${e.detail.actor ? nameOf('actor', e.detail.actor) : ''}</td><td>${e.ip}</td>
            </tr>`,
          )}
        </tbody>
      </table></div>
    </section>
  </div>`;
}
