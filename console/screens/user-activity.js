// What a user has connected and done: second factors, social accounts and
// recent audit events, with removing a factor and disconnecting an account.
import { nameOf, t } from '../lib/i18n.js';
import { ConfirmButton, html, Time } from '../lib/ui.js';
import { Outcome, useSectionWrite } from './user-fields.js';

export function Factors({ user, who, authenticators, change, reload }) {
  const { run, notice, errors } = useSectionWrite(user.id, change, reload);
  return html`<section id="authenticators">
    <h2>${t('factors.title')}</h2>
    ${authenticators.length === 0 && html`<p class="muted">${t('none')}</p>`}
    <div class="scroll"><table>
      <tbody>
        ${authenticators.map(
          (a) => html`<tr data-authenticator=${a.type}>
            <td>${nameOf('authenticator', a.type)}${a.name ? ` “${a.name}”` : ''}${a.recovery_codes ? ` ${t('factors.recovery_codes', { unused: a.recovery_codes.unused, total: a.recovery_codes.total })}` : ''}</td>
            <td>${t('factors.added')} <${Time} at=${a.created_at} /></td><td>${t('factors.last_used')} <${Time} at=${a.last_used_at} /></td>
            <td>${a.type !== 'recovery_codes' && html`<${ConfirmButton} label=${t('factors.remove')} question=${t('factors.remove_question', { user: who, factor: nameOf('authenticator', a.type) })} onConfirm=${() => run('DELETE', `/authenticators/${a.id}`, undefined, t('factors.removed'))} />`}</td>
          </tr>`,
        )}
      </tbody>
    </table></div>
    <${Outcome} id="authenticators" notice=${notice} errors=${errors} />
  </section>`;
}

export function SocialAccounts({ user, who, social, change, reload }) {
  const { run, notice, errors } = useSectionWrite(user.id, change, reload);
  return html`<section id="social">
    <h2>${t('social.title')}</h2>
    ${social.length === 0 && html`<p class="muted">${t('none')}</p>`}
    <ul class="rows">
      ${social.map(
        (s) => html`<li data-social=${s.id}>
          <span class="what">${(s.provider_name ?? nameOf('provider', s.provider))}: ${s.display ?? s.uid}</span>
          <${ConfirmButton} label=${t('user.social.disconnect')} question=${t('user.social.disconnect_question', { provider: (s.provider_name ?? nameOf('provider', s.provider)), account: s.display ?? s.uid, user: who })} onConfirm=${() => run('DELETE', `/social-accounts/${s.id}`, undefined, t('user.social.disconnected'))} />
        </li>`,
      )}
    </ul>
    <${Outcome} id="social" notice=${notice} errors=${errors} />
  </section>`;
}

export function Events({ events }) {
  return html`<section id="events">
    <h2>${t('events.title')}</h2>
    ${events.length === 0 && html`<p class="muted">${t('none')}</p>`}
    <div class="scroll"><table>
      <tbody>
        ${events.map(
          (e) => html`<tr data-event=${e.type}>
            <td><${Time} at=${e.occurred_at} /></td><td>${nameOf('event', e.type)}</td><td>${nameOf('outcome', e.outcome)}</td><td>${e.detail.actor ? nameOf('actor', e.detail.actor) : ''}</td><td>${e.ip}</td>
          </tr>`,
        )}
      </tbody>
    </table></div>
  </section>`;
}
