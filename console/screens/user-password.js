// Setting a user's password (ending their sessions unless kept), or mailing
// them a link to choose one themselves: a reset link, or for a user who has
// no password yet the invitation (again, when one was sent before).
import { useState } from '../vendor/hooks.js';
import { t } from '../lib/i18n.js';
import { Button, html } from '../lib/ui.js';
import { describedBy, FieldError, Outcome, useSectionWrite } from './user-fields.js';

export function Password({ user, change, reload, invited }) {
  const [password, setPassword] = useState('');
  const [keep, setKeep] = useState(false);
  const { run, notice, errors } = useSectionWrite(user.id, change, reload);
  const reset = useSectionWrite(user.id, change, reload);
  const invitation = useSectionWrite(user.id, change, reload);
  async function set() {
    const result = await run('POST', '/password', { password, keep_sessions: keep }, (data) => t('user.password.set_done', { ended: data.sessions_ended }));
    if (result && result.http < 400) setPassword('');
  }
  return html`<section id="password">
    <h2>${t('user.password.title')}</h2>
    <form class="stack" id="password-form" onSubmit=${(e) => e.preventDefault()}>
      <label>${t('user.password.new')}
        <input id="password-input" type="password" name="new-password" autocomplete="new-password" value=${password} ...${describedBy(errors, 'password', 'password-input')} onInput=${(e) => setPassword(e.target.value)} />
        <${FieldError} errors=${errors} param="password" id="password-input" />
      </label>
      <label class="check"><input type="checkbox" id="password-keep-sessions" checked=${keep} onChange=${(e) => setKeep(e.target.checked)} /> ${t('user.password.keep_sessions')}</label>
      <div class="inline"><${Button} type="submit" id="password-set" disabled=${password === ''} onClick=${set}>${t('user.password.set')}<//></div>
    </form>
    <${Outcome} id="password" notice=${notice} errors=${errors} fields=${['password']} />
    <div class="actions">
      <span class="muted">${t('user.password.or_link')}</span>
      <${Button} id="send-reset" onClick=${() => reset.run('POST', '/password-reset', undefined, t('user.reset_sent'))}>${t('user.send_reset')}<//>
    </div>
    <${Outcome} id="reset" notice=${reset.notice} errors=${reset.errors} />
    ${!user.has_usable_password &&
    user.email &&
    html`<p class="muted" id="invitation-intro">${t('user.invitation.intro', { email: user.email })}</p>
      <div class="actions">
        <${Button} id="send-invitation" busyLabel=${t('busy')} onClick=${() => invitation.run('POST', '/invitation', undefined, (data) => t('user.invitation.sent', { email: data.email }))}>${t(invited ? 'user.invitation.send_again' : 'user.invitation.send')}<//>
      </div>
      <${Outcome} id="invitation" notice=${invitation.notice} errors=${invitation.errors} />`}
  </section>`;
}
