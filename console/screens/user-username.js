// The username, changed in an inline form (empty removes it).
import { useEffect, useState } from '../vendor/hooks.js';
import { t } from '../lib/i18n.js';
import { Button, html } from '../lib/ui.js';
import { describedBy, FieldError, Outcome, useSectionWrite } from './user-fields.js';

export function UsernameForm({ user, change, reload }) {
  const [held, setHeld] = useState(user.username ?? '');
  // The saved name once the page reloads it (trimmed, or another administrator's change).
  useEffect(() => setHeld(user.username ?? ''), [user.username]);
  const { run, notice, errors } = useSectionWrite(user.id, change, reload);
  const save = () => run('PATCH', '', { username: held.trim() === '' ? null : held.trim() }, t('user.username.saved'));
  return html`<form class="inline" id="username-form" onSubmit=${(e) => e.preventDefault()}>
      <label for="username-input">${t('user.username.label')}</label>
      <input id="username-input" name="username" autocomplete="off" maxlength="150" value=${held} ...${describedBy(errors, 'username', 'username-input')} onInput=${(e) => setHeld(e.target.value)} />
      <${Button} type="submit" id="username-save" onClick=${save} disabled=${held === (user.username ?? '')}>${t('user.username.save')}<//>
      <${FieldError} errors=${errors} param="username" id="username-input" />
    </form>
    <${Outcome} id="username" notice=${notice} errors=${errors} fields=${['username']} />`;
}
