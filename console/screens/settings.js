// The settings the server started with (GET /settings), read-only, in the
// API's groups: each variable's value as the API lets it show (a secret is
// hidden whole or in part, and says so), or "default" when it is unset. The
// box narrows the rows by name; its text is kept in the URL (#/settings?q=…).
import { useEffect, useState } from '../vendor/hooks.js';
import { read } from '../lib/api.js';
import { t } from '../lib/i18n.js';
import { navigate } from '../lib/router.js';
import { Badge, html, Problem } from '../lib/ui.js';

function Value({ setting }) {
  if (!setting.set) return html`<span class="muted">${t('settings.default')}</span>`;
  return html`${setting.value !== null && html`<code>${setting.value}</code>`}
    ${setting.masked && html` <${Badge} tone="warn">${setting.value === null ? t('settings.hidden') : t('settings.partly_hidden')}<//>`}`;
}

/** A variable's name that a narrow column may break after its underscores rather than anywhere. */
const breakable = (name) => name.split('_').map((part, i) => (i === 0 ? part : html`_<wbr />${part}`));

export function Settings({ query }) {
  const [groups, setGroups] = useState(null);
  const [error, setError] = useState('');
  const [text, setText] = useState(query.q ?? '');
  useEffect(() => {
    read('/settings').then((answer) => setGroups(answer.data), (e) => setError(e.message));
  }, []);
  // Each keystroke replaces the URL's filter, not a new entry of the history.
  const filter = (value) => {
    setText(value);
    navigate('settings', { q: value.trim() }, { replace: true });
  };
  const needle = text.trim().toUpperCase();
  const shown = (groups ?? []).map((g) => ({ ...g, settings: g.settings.filter((s) => s.name.includes(needle)) })).filter((g) => g.settings.length > 0);

  return html`<section id="settings" class="plain">
    <h1>${t('settings.title')}</h1>
    <p class="muted">${t('settings.intro')}</p>
    <form class="inline" role="search" onSubmit=${(e) => e.preventDefault()}>
      <label class="grow">${t('settings.filter')}
        <input id="settings-filter" type="search" value=${text} onInput=${(e) => filter(e.target.value)} placeholder=${t('settings.filter_hint')} autocomplete="off" />
      </label>
    </form>
    <${Problem} id="settings-error" text=${error} />
    ${groups && shown.length === 0 && html`<p class="muted" id="settings-none">${t('settings.none', { text: text.trim() })}</p>`}
    ${shown.map(
      (g) => html`<section class="settings-group" id=${`settings-${g.id}`}>
        <h2>${t(`settings.group.${g.id}`)}</h2>
        <table>
          <thead><tr><th scope="col">${t('settings.column.name')}</th><th scope="col">${t('settings.column.value')}</th></tr></thead>
          <tbody>${g.settings.map((s) => html`<tr data-setting=${s.name} data-set=${String(s.set)}><td class="name"><code>${breakable(s.name)}</code></td><td class="value"><${Value} setting=${s} /></td></tr>`)}</tbody>
        </table>
      </section>`,
    )}
  </section>`;
}
