// A new user (the admin API's POST /users): address and/or username, names,
// and how they will sign in: a password set here, an invitation mailed to
// the address (a link to choose their own password), or none for now. Each
// refusal shows next to its field; once made, the user's page opens.
import { useState } from '../vendor/hooks.js';
import { API, errorsByParam } from '../lib/api.js';
import { t } from '../lib/i18n.js';
import { href, navigate } from '../lib/router.js';
import { html } from '../lib/ui.js';
import { usersListHref } from './users.js';

const FIELDS = ['email', 'username', 'first_name', 'last_name'];
const WAYS = ['invite', 'password', 'none'];

export function UserCreate({ change }) {
  const [held, setHeld] = useState({ email: '', username: '', first_name: '', last_name: '', password: '', verified: false });
  const [way, setWay] = useState('invite');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState({});
  const [madeWithoutMail, setMadeWithoutMail] = useState(null);
  const set = (key, value) => setHeld((previous) => ({ ...previous, [key]: value }));

  async function submit(event) {
    event.preventDefault();
    const body = {};
    for (const key of FIELDS) if (held[key].trim()) body[key] = held[key].trim();
    if (way === 'password') body.password = held.password;
    if (way === 'invite') body.invite = true;
    if (held.verified) body.email_verified = true;
    setErrors({});
    setBusy(true);
    const result = await change('POST', `${API}/users`, body);
    setBusy(false);
    if (!result) return;
    if (result.http >= 400) {
      // A param this form has no input for (or none) shows above the button.
      const byParam = {};
      const known = new Set([...FIELDS, 'password', 'invite']);
      for (const [param, messages] of Object.entries(errorsByParam(result.body))) (byParam[known.has(param) ? param : ''] ??= []).push(...messages);
      return setErrors(byParam);
    }
    const user = result.body.data;
    if (result.body.meta?.invitation === 'failed') return setMadeWithoutMail(user);
    navigate(`users/${user.id}`);
  }

  const problem = (key) => errors[key] && html`<span class="error" id=${`create-${key}-error`}>${errors[key].join(' ')}</span>`;
  const described = (key) => ({ 'aria-invalid': errors[key] ? 'true' : undefined, 'aria-describedby': errors[key] ? `create-${key}-error` : undefined });
  const text = (key, attributes = {}) =>
    html`<label>${t(`users.create.${key}`)}
      <input id=${`create-${key}`} name=${key} autocomplete="off" value=${held[key]} onInput=${(e) => set(key, e.target.value)} ...${described(key)} ...${attributes} />
      ${problem(key)}
    </label>`;

  if (madeWithoutMail)
    return html`<section id="user-create">
      <h1>${t('users.create.title')}</h1>
      <p class="error" role="alert" id="create-mail-failed">${t('users.create.invitation_failed')}</p>
      <p><a id="create-open-user" href=${href(`users/${madeWithoutMail.id}`)}>${t('users.create.open_user', { user: madeWithoutMail.email })}</a></p>
    </section>`;

  return html`<section id="user-create">
    <p><a href=${usersListHref()} id="create-back">${t('user.back')}</a></p>
    <h1>${t('users.create.title')}</h1>
    <p class="muted">${t('users.create.intro')}</p>
    <form class="stack" id="create-form" onSubmit=${submit} novalidate>
      ${text('email', { type: 'email', inputmode: 'email', maxlength: 254 })}
      ${text('username', { maxlength: 150 })}
      ${text('first_name', { maxlength: 150 })}
      ${text('last_name', { maxlength: 150 })}
      <fieldset id="create-way" aria-describedby=${errors.invite ? 'create-invite-error' : undefined}>
        <legend>${t('users.create.way')}</legend>
        ${WAYS.map(
          (w) => html`<label class="check"><input type="radio" name="way" id=${`create-way-${w}`} value=${w} checked=${way === w} onChange=${() => setWay(w)} /> ${t(`users.create.way.${w}`)}</label>`,
        )}
        ${problem('invite')}
        ${way === 'password' && text('password', { type: 'password', autocomplete: 'new-password', maxlength: 4096 })}
      </fieldset>
      <label class="check"><input type="checkbox" id="create-verified" checked=${held.verified} onChange=${(e) => set('verified', e.target.checked)} /> ${t('users.create.verified')}</label>
      ${errors[''] && html`<p class="error" role="alert" id="create-error">${errors[''].join(' ')}</p>`}
      <div class="inline">
        <button class="primary" id="create-submit" disabled=${busy} aria-busy=${busy ? 'true' : undefined}>${busy ? t('busy') : t(way === 'invite' ? 'users.create.submit_invite' : 'users.create.submit')}</button>
        <a href=${usersListHref()} id="create-cancel">${t('cancel')}</a>
      </div>
    </form>
  </section>`;
}
