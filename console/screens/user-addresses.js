// A user's email addresses and phone number: add, make primary, mark
// verified, remove; set, change, mark verified or remove the number. Each
// step that changes where they sign in or get mail asks first, naming the
// address and the user.
import { useState } from '../vendor/hooks.js';
import { t } from '../lib/i18n.js';
import { Badge, Button, ConfirmButton, html } from '../lib/ui.js';
import { describedBy, FieldError, Outcome, useSectionWrite } from './user-fields.js';

const path = (email) => `/email-addresses/${encodeURIComponent(email)}`;

export function Addresses({ user, who, change, reload }) {
  const [email, setEmail] = useState('');
  const [verified, setVerified] = useState(false);
  const { run, notice, errors } = useSectionWrite(user.id, change, reload);
  async function add() {
    const result = await run('POST', '/email-addresses', { email: email.trim(), verified }, t('user.addresses.added'));
    if (result && result.http < 400) {
      setEmail('');
      setVerified(false);
    }
  }
  return html`<section id="addresses">
    <h2>${t('user.addresses.title')}</h2>
    ${user.email_addresses.length === 0 && html`<p class="muted">${t('user.addresses.none')}</p>`}
    <ul class="rows">
      ${user.email_addresses.map(
        (a) => html`<li data-address=${a.email}>
          <span class="what">${a.email} ${a.primary && html`<${Badge}>${t('addresses.primary')}<//>`} <${Badge} tone=${a.verified ? undefined : 'off'}>${a.verified ? t('addresses.verified') : t('addresses.unverified')}<//></span>
          <span class="actions">
            ${!a.primary && html`<${ConfirmButton} className="" label=${t('user.addresses.make_primary')} question=${t('user.addresses.make_primary_question', { email: a.email, user: who })} onConfirm=${() => run('PATCH', path(a.email), { primary: true }, t('user.addresses.primary_changed'))} />`}
            ${!a.verified && html`<${ConfirmButton} className="" label=${t('user.addresses.verify')} question=${t('user.addresses.verify_question', { email: a.email, user: who })} onConfirm=${() => run('PATCH', path(a.email), { verified: true }, t('user.addresses.verified_done'))} />`}
            <${ConfirmButton} label=${t('user.addresses.remove')} question=${t('user.addresses.remove_question', { email: a.email, user: who })} onConfirm=${() => run('DELETE', path(a.email), undefined, t('user.addresses.removed'))} />
          </span>
        </li>`,
      )}
    </ul>
    <form class="inline" id="address-form" onSubmit=${(e) => e.preventDefault()}>
      <label for="address-input" class="sr-only">${t('user.addresses.email')}</label>
      <input id="address-input" type="email" name="email" autocomplete="off" placeholder=${t('user.addresses.email')} value=${email} ...${describedBy(errors, 'email', 'address-input')} onInput=${(e) => setEmail(e.target.value)} />
      <label class="check"><input type="checkbox" id="address-verified" checked=${verified} onChange=${(e) => setVerified(e.target.checked)} /> ${t('user.addresses.add_verified')}</label>
      <${Button} type="submit" id="address-add" disabled=${email.trim() === ''} onClick=${add}>${t('user.addresses.add')}<//>
      <${FieldError} errors=${errors} param="email" id="address-input" />
    </form>
    <${Outcome} id="addresses" notice=${notice} errors=${errors} fields=${['email']} />
  </section>`;
}

export function Phone({ user, who, change, reload }) {
  const [phone, setPhone] = useState('');
  const [verified, setVerified] = useState(false);
  const { run, notice, errors } = useSectionWrite(user.id, change, reload);
  const current = user.phone;
  async function save() {
    const result = await run('PUT', '/phone', { phone: phone.trim(), verified }, t('user.phone.saved'));
    if (result && result.http < 400) {
      setPhone('');
      setVerified(false);
    }
  }
  return html`<section id="phone">
    <h2>${t('user.phone.title')}</h2>
    ${current
      ? html`<ul class="rows"><li id="phone-number">
          <span class="what">${current.phone} <${Badge} tone=${current.verified ? undefined : 'off'}>${current.verified ? t('addresses.verified') : t('addresses.unverified')}<//></span>
          <span class="actions">
            ${!current.verified && html`<${ConfirmButton} id="phone-verify" className="" label=${t('user.phone.verify')} question=${t('user.phone.verify_question', { phone: current.phone, user: who })} onConfirm=${() => run('PUT', '/phone', { phone: current.phone, verified: true }, t('user.phone.verified_done'))} />`}
            <${ConfirmButton} id="phone-remove" label=${t('user.phone.remove')} question=${t('user.phone.remove_question', { phone: current.phone, user: who })} onConfirm=${() => run('DELETE', '/phone', undefined, t('user.phone.removed'))} />
          </span>
        </li></ul>`
      : html`<p class="muted">${t('user.phone.none')}</p>`}
    <form class="inline" id="phone-form" onSubmit=${(e) => e.preventDefault()}>
      <label for="phone-input" class="sr-only">${t('user.phone.number')}</label>
      <input id="phone-input" type="tel" name="phone" autocomplete="off" placeholder=${t('user.phone.number')} value=${phone} ...${describedBy(errors, 'phone', 'phone-input')} onInput=${(e) => setPhone(e.target.value)} />
      <label class="check"><input type="checkbox" id="phone-verified" checked=${verified} onChange=${(e) => setVerified(e.target.checked)} /> ${t('user.phone.verified')}</label>
      <${Button} type="submit" id="phone-save" disabled=${phone.trim() === ''} onClick=${save}>${current ? t('user.phone.change') : t('user.phone.set')}<//>
      <${FieldError} errors=${errors} param="phone" id="phone-input" />
    </form>
    <${Outcome} id="phone" notice=${notice} errors=${errors} fields=${['phone']} />
  </section>`;
}
