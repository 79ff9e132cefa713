// Deleting a user for good, behind a dialog that names them and asks for
// their address (or username) typed out, so that a slip of the mouse on the
// wrong page deletes nobody; then back to the list the operator came from.
import { useState } from '../vendor/hooks.js';
import { API, errorText } from '../lib/api.js';
import { t } from '../lib/i18n.js';
import { Button, Dialog, html, Problem } from '../lib/ui.js';
import { usersListHref } from './users.js';

/** "To confirm, type <strong>ada@example.com</strong>", the text set apart wherever the language puts it. */
function typePrompt(text) {
  const [before, after] = t('user.delete.type', { text: '\u0000' }).split('\u0000');
  return html`<span>${before}<strong class="typed">${text}</strong>${after}</span>`;
}

export function DeleteUser({ user, who, change }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState('');
  const expected = user.email ?? user.username ?? String(user.id);
  const close = () => {
    setOpen(false);
    setTyped('');
    setError('');
  };
  async function remove() {
    setError('');
    const result = await change('DELETE', `${API}/users/${user.id}`);
    if (!result) return;
    if (result.http >= 400) return setError(errorText(result.body));
    // Back to the list as it was left (its search, filters and page).
    location.hash = usersListHref();
  }
  return html`<section id="delete">
    <h2>${t('user.delete.heading')}</h2>
    <p class="muted">${t('user.delete.explain')}</p>
    <button type="button" class="danger" id="delete-user" onClick=${() => setOpen(true)}>${t('user.delete.button')}</button>
    ${open &&
    html`<${Dialog} id="delete-dialog" title=${t('user.delete.title', { user: who })} onClose=${close}>
      <form class="stack" onSubmit=${(e) => e.preventDefault()}>
        <p id="delete-question">${t('user.delete.question', { user: who })}</p>
        <label>${typePrompt(expected)}
          <input id="delete-typed" autocomplete="off" spellcheck="false" value=${typed} onInput=${(e) => setTyped(e.target.value)} />
        </label>
        <${Problem} id="delete-error" text=${error} />
        <div class="actions">
          <${Button} type="submit" class="danger" id="delete-confirm" busyLabel=${t('busy')} disabled=${typed.trim().toLowerCase() !== expected.toLowerCase()} onClick=${remove}>${t('user.delete.confirm')}<//>
          <button type="button" id="delete-cancel" onClick=${close}>${t('cancel')}</button>
        </div>
      </form>
    <//>`}
  </section>`;
}
