// The audit screen's event filter: several types at once (the API takes
// them comma-separated), ticked in groups of related events inside a
// disclosure that says what is chosen while closed.
import { useState } from '../vendor/hooks.js';
import { nameOf, t } from '../lib/i18n.js';
import { html } from '../lib/ui.js';

/** Groups of the event types by the part before their first dot; a prefix not named here goes to "other". */
const GROUPS = [
  ['sign_in', ['login', 'logout', 'signup', 'reauthenticated', 'session', 'refresh_token', 'rate_limit']],
  ['account', ['account', 'username', 'profile', 'password', 'email', 'phone']],
  ['factors', ['authenticator', 'recovery_codes']],
  ['social', ['social']],
  ['admin', ['admin', 'admin_key', 'webhook']],
  ['idp', ['idp', 'idp_client', 'idp_initial_access_token']],
];
const groupOf = (type) => GROUPS.find(([, prefixes]) => prefixes.includes(type.split('.')[0]))?.[0] ?? 'other';

/** What the closed filter says: any event, the one or two chosen by name, else how many. */
function chosenText(chosen) {
  if (chosen.length === 0) return t('audit.any_type');
  if (chosen.length <= 2) return chosen.map((type) => nameOf('event', type)).join(', ');
  return t('audit.types_chosen', { count: chosen.length });
}

/** `chosen`: the ticked types; `onChange(types)` with the new list. */
export function TypePicker({ types, chosen, onChange }) {
  // Types in the URL that the server does not list (an older link) stay chosen and shown.
  const all = [...new Set([...types, ...chosen])];
  const byName = (a, b) => nameOf('event', a).localeCompare(nameOf('event', b));
  const groups = [...GROUPS.map(([id]) => id), 'other'].map((id) => [id, all.filter((type) => groupOf(type) === id).sort(byName)]).filter(([, members]) => members.length > 0);
  // Open, the groups take the form's whole width.
  const [open, setOpen] = useState(false);
  const toggle = (type, on) => onChange(on ? [...chosen, type] : chosen.filter((x) => x !== type));
  return html`<div class=${open ? 'type-filter open' : 'type-filter'}>
    <span class="label" id="filter-type-label">${t('audit.filter.type')}</span>
    <details id="filter-type" onToggle=${(e) => setOpen(e.currentTarget.open)}>
      <summary aria-describedby="filter-type-label" id="filter-type-summary">${chosenText(chosen)}</summary>
      <div class="type-groups">
        ${groups.map(
          ([id, members]) => html`<fieldset data-group=${id}>
            <legend>${t(`audit.type_group.${id}`)}</legend>
            ${members.map((type) => html`<label class="check"><input type="checkbox" name="type" value=${type} checked=${chosen.includes(type)} onChange=${(e) => toggle(type, e.target.checked)} /> ${nameOf('event', type)}</label>`)}
          </fieldset>`,
        )}
      </div>
      <div class="actions"><button type="button" id="filter-type-any" disabled=${chosen.length === 0} onClick=${() => onChange([])}>${t('audit.any_type')}</button></div>
    </details>
  </div>`;
}
