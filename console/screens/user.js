// One user: their state, username, role and language, names and profile
// fields, addresses and phone, password, sessions, second factors, social
// accounts and recent audit events, with the administrator's actions on each
// (the sections are in user-*.js). Two columns at desktop width: who they are
// and how they sign in on the left, what they have connected and done on the right.
import { useCallback, useEffect, useState } from '../vendor/hooks.js';
import { API, call, errorText } from '../lib/api.js';
import { language as pageLanguage, nameOf, t } from '../lib/i18n.js';
import { Badge, Button, ConfirmButton, html, Problem, Time } from '../lib/ui.js';
import { ProfileForm } from './profile-form.js';
import { Outcome, useSectionWrite } from './user-fields.js';
import { UsernameForm } from './user-username.js';
import { Addresses, Phone } from './user-addresses.js';
import { Password } from './user-password.js';
import { Sessions } from './user-sessions.js';
import { Events, Factors, SocialAccounts } from './user-activity.js';
import { DeleteUser } from './user-delete.js';
import { usersListHref } from './users.js';

const languageNames = new Intl.DisplayNames([pageLanguage], { type: 'language' });
/** A language code as the page's language names it ("fr" → "French"). */
function languageName(code) {
  try {
    return languageNames.of(code) ?? code;
  } catch {
    return code;
  }
}

export function UserPage({ params, change }) {
  const id = Number(params.id);
  const [data, setData] = useState(null);
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

  if (error && !data) return html`<${Problem} text=${error} />`;
  if (!data) return html`<p>${t('loading')}</p>`;
  const { user, fields, sessions, authenticators, social, events } = data;
  const who = user.email ?? user.username ?? t('user.fallback', { id: user.id });
  const props = { user, who, change, reload: load };
  return html`<div id="user-page" data-user=${user.id}>
    <p><a id="back-to-list" href=${usersListHref()}>${t('user.back')}</a></p>
    <${Account} ...${props} />
    <div class="user-columns">
      <div>
        <${ProfileForm} key=${`profile-${user.id}`} user=${user} fields=${fields} change=${change} onSaved=${load} />
        <${Addresses} ...${props} />
        <${Phone} ...${props} />
        <${Password} ...${props} invited=${events.some((e) => e.type === 'account.invited')} />
      </div>
      <div>
        <${Sessions} ...${props} sessions=${sessions} />
        <${Factors} ...${props} authenticators=${authenticators} />
        <${SocialAccounts} ...${props} social=${social} />
        <${Events} events=${events} />
        <${DeleteUser} ...${props} />
      </div>
    </div>
  </div>`;
}

/** Who the user is and what they may do: state, role, username, language; deactivating and the admin role. */
function Account({ user, who, change, reload }) {
  const { run, notice, errors } = useSectionWrite(user.id, change, reload);
  return html`<section id="account">
    <h1>${who}</h1>
    <p>
      <span id="user-state" class=${user.is_active ? 'badge' : 'badge off'}>${user.is_active ? t('state.active') : t('state.disabled')}</span>
      ${user.is_admin && html` <${Badge}>${t('role.admin')}<//>`}
    </p>
    <dl class="facts">
      <dt>${t('column.id')}</dt><dd>${user.id}</dd>
      <dt>${t('column.joined')}</dt><dd><${Time} at=${user.created_at} /></dd>
      <dt>${t('column.last_login')}</dt><dd><${Time} at=${user.last_login_at} /></dd>
      <dt>${t('user.password.title')}</dt><dd>${user.has_usable_password ? nameOf('hasher', user.password_hasher) : t('user.no_password')}</dd>
      <dt>${t('user.language')}</dt><dd id="user-language">${user.language ? languageName(user.language) : html`<span class="muted">${t('user.language_unknown')}</span>`}</dd>
    </dl>
    <${UsernameForm} user=${user} change=${change} reload=${reload} />
    <div class="actions">
      ${user.is_active
        ? html`<${ConfirmButton} id="deactivate" label=${t('user.deactivate')} question=${t('user.deactivate_question', { user: who })} onConfirm=${() => run('PATCH', '', { is_active: false }, t('user.deactivated'))} />`
        : html`<${Button} id="reactivate" onClick=${() => run('PATCH', '', { is_active: true }, t('user.reactivated'))}>${t('user.reactivate')}<//>`}
      ${user.is_admin
        ? html`<${ConfirmButton} id="revoke-admin" label=${t('user.admin.revoke')} question=${t('user.admin.revoke_question', { user: who })} onConfirm=${() => run('PATCH', '', { is_admin: false }, t('user.admin.revoked', { user: who }))} />`
        : html`<${ConfirmButton} id="grant-admin" className="" label=${t('user.admin.grant')} question=${t('user.admin.grant_question', { user: who })} onConfirm=${() => run('PATCH', '', { is_admin: true }, t('user.admin.granted', { user: who }))} />`}
    </div>
    <${Outcome} id="account" notice=${notice} errors=${errors} />
  </section>`;
}
