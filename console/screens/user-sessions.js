// A user's live sessions. On the administrator's own page the console's
// session is marked (the API's `current`), and revoking it asks more
// sternly: it signs the administrator out.
import { t } from '../lib/i18n.js';
import { Badge, ConfirmButton, html, Time } from '../lib/ui.js';
import { Outcome, useSectionWrite } from './user-fields.js';

const SYSTEMS = [['iPhone', 'iPhone'], ['iPad', 'iPad'], ['Android', 'Android'], ['Windows', 'Windows'], ['Mac OS X', 'macOS'], ['CrOS', 'ChromeOS'], ['Linux', 'Linux']];
const BROWSERS = [['Edg/', 'Edge'], ['OPR/', 'Opera'], ['Firefox/', 'Firefox'], ['FxiOS/', 'Firefox'], ['CriOS/', 'Chrome'], ['Chrome/', 'Chrome'], ['Safari/', 'Safari']];

/** "Firefox on Linux" for a browser's user agent (the whole string in its title); an app's own name as it gave it. */
function Device({ ua }) {
  if (!ua) return '–';
  const os = SYSTEMS.find(([mark]) => ua.includes(mark))?.[1];
  const browser = BROWSERS.find(([mark]) => ua.includes(mark))?.[1];
  const name = browser && os ? t('user.sessions.device', { browser, os }) : (browser ?? os);
  return name ? html`<span title=${ua}>${name}</span>` : ua;
}

export function Sessions({ user, who, sessions, change, reload }) {
  const { run, notice, errors } = useSectionWrite(user.id, change, reload);
  return html`<section id="sessions">
    <h2>${t('sessions.title', { count: sessions.length })}</h2>
    ${sessions.length > 0 && html`<${ConfirmButton} id="revoke-all" label=${t('sessions.revoke_all')} question=${sessions.some((s) => s.current) ? t('user.sessions.revoke_all_own_question', { count: sessions.length }) : t('sessions.revoke_all_question', { user: who, count: sessions.length })} onConfirm=${() => run('DELETE', '/sessions', undefined, t('sessions.all_revoked'))} />`}
    <${Outcome} id="sessions" notice=${notice} errors=${errors} />
    <div class="scroll"><table>
      <thead><tr><th>${t('column.device')}</th><th>${t('column.ip')}</th><th>${t('column.signed_in')}</th><th>${t('column.last_use')}</th><th></th></tr></thead>
      <tbody>
        ${sessions.map(
          (s) => html`<tr data-session=${s.id} data-current=${s.current ? 'true' : undefined}>
            <td class="ua">${s.current && html`<${Badge} tone="here">${t('user.sessions.this_browser')}<//> `}<${Device} ua=${s.user_agent} /></td><td data-label=${t('column.ip')}>${s.ip || '–'}</td><td data-label=${t('column.signed_in')}><${Time} at=${s.created_at} /></td><td data-label=${t('column.last_use')}><${Time} at=${s.last_seen_at} /></td>
            <td>${s.current
              ? html`<${ConfirmButton} label=${t('sessions.revoke')} confirmLabel=${t('user.sessions.revoke_own')} question=${t('user.sessions.revoke_own_question')} onConfirm=${() => run('DELETE', `/sessions/${s.id}`)} />`
              : html`<${ConfirmButton} label=${t('sessions.revoke')} question=${t('sessions.revoke_question', { user: who, device: s.user_agent || s.ip || '–' })} onConfirm=${() => run('DELETE', `/sessions/${s.id}`, undefined, t('sessions.revoked'))} />`}</td>
          </tr>`,
        )}
      </tbody>
    </table></div>
  </section>`;
}
