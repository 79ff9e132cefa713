// The webhook outbox: GET /webhook-deliveries by status (pending and failed
// by default), a page at a time, the status and the page kept in the URL;
// failed ones sent again, one, the selected or all of them, with POST
// /webhook-deliveries/requeue. GET /settings says whether WEBHOOK_URLS is set,
// so that "nothing waiting" and "webhooks are off" read differently.
import { useEffect, useState } from '../vendor/hooks.js';
import { API, call, errorText } from '../lib/api.js';
import { nameOf, number, t } from '../lib/i18n.js';
import { href, navigate } from '../lib/router.js';
import { Badge, ConfirmButton, html, Notice, Problem, Time } from '../lib/ui.js';

const PAGE = 50;
const STATUSES = ['', 'pending', 'failed', 'delivered'];
const TONES = { pending: 'warn', failed: 'off', delivered: 'ok' };
// Counting the failed ones for "requeue all" reads at most this many (the API's largest page).
const COUNT_LIMIT = 1000;

/** WEBHOOK_URLS and WEBHOOK_MAX_ATTEMPTS as GET /settings shows them (the URLs masked). */
async function webhookSettings() {
  const result = await call('GET', `${API}/settings`);
  if (result.http !== 200) return null;
  const all = result.body.data.flatMap((group) => group.settings);
  const urls = all.find((s) => s.name === 'WEBHOOK_URLS');
  const attempts = all.find((s) => s.name === 'WEBHOOK_MAX_ATTEMPTS');
  return { on: Boolean(urls?.set), urls: urls?.value ?? '', maxAttempts: attempts?.set ? Number(attempts.value) : 12 };
}

export function Webhooks({ query, change }) {
  const status = STATUSES.includes(query.status ?? '') ? (query.status ?? '') : '';
  const [settings, setSettings] = useState(undefined);
  const [page, setPage] = useState(null);
  const [failed, setFailed] = useState(null);
  const [error, setError] = useState('');
  const [selected, setSelected] = useState(new Set());
  const [notice, setNotice] = useState('');
  // A refused requeue (409 not_failed, 404 not_found): {where, text}, shown beside the action that asked.
  const [refusal, setRefusal] = useState(null);
  const [asked, setAsked] = useState(0);
  /** Cursors of the pages before this one ('0' for the first), so that "Newer" goes back. */
  const trail = query.trail ? query.trail.split('.') : [];

  useEffect(() => void webhookSettings().then(setSettings), []);
  useEffect(() => {
    let live = true;
    const params = new URLSearchParams({ limit: String(PAGE) });
    if (status) params.set('status', status);
    if (query.cursor) params.set('cursor', query.cursor);
    Promise.all([call('GET', `${API}/webhook-deliveries?${params}`), call('GET', `${API}/webhook-deliveries?status=failed&limit=${COUNT_LIMIT}`)]).then(([list, all]) => {
      if (!live) return;
      if (list.http !== 200) return setError(errorText(list.body));
      setError('');
      setPage(list.body);
      setFailed(all.http === 200 ? { count: all.body.data.length, more: Boolean(all.body.meta.next_cursor) } : null);
      // Only what is still failed and on this page stays selected.
      const failedHere = new Set(list.body.data.filter((d) => d.status === 'failed').map((d) => d.id));
      setSelected((previous) => new Set([...previous].filter((id) => failedHere.has(id))));
    });
    return () => void (live = false);
  }, [status, query.cursor, asked]);

  /** POSTs a requeue; the outcome shows beside the action (`where`), and the list is read again either way. */
  async function requeue(where, body) {
    setNotice('');
    setRefusal(null);
    const result = await change('POST', `${API}/webhook-deliveries/requeue`, body);
    if (!result) return;
    if (result.http === 200) setNotice(t('webhooks.requeued', { count: result.body.data.length }));
    else setRefusal({ where, text: errorText(result.body) });
    setAsked((n) => n + 1);
  }

  const older = () => navigate('webhooks', { status: status || undefined, cursor: page.meta.next_cursor, trail: [...trail, query.cursor ?? '0'].join('.') });
  const newer = () => navigate('webhooks', { status: status || undefined, cursor: trail.at(-1) === '0' ? undefined : trail.at(-1), trail: trail.slice(0, -1).join('.') || undefined });
  const deliveries = page?.data ?? [];
  const off = settings && !settings.on;

  return html`<section id="webhooks" data-status=${status || 'undelivered'}>
    <div class="heading">
      <h1>${t('webhooks.title')}</h1>
      <nav class="segmented" aria-label=${t('webhooks.status_label')}>
        ${STATUSES.map((s) => html`<a id=${`status-${s || 'undelivered'}`} href=${href('webhooks', { status: s || undefined })} aria-current=${s === status ? 'true' : undefined}>${t(`webhooks.filter.${s || 'undelivered'}`)}</a>`)}
      </nav>
    </div>
    ${settings && (settings.on
      ? html`<p class="muted" id="webhooks-config">${t('webhooks.config', { urls: settings.urls, attempts: settings.maxAttempts })}</p>`
      : html`<p class="notice-box" id="webhooks-off">${t('webhooks.off')}</p>`)}
    <${Problem} id="webhooks-error" text=${error} />
    ${page && !(off && deliveries.length === 0 && !query.cursor) && html`
      ${failed?.count > 0 && html`<div class="actions bulk">
        <${ConfirmButton} id="requeue-selected" className="" disabled=${selected.size === 0} label=${t('webhooks.requeue_selected', { count: selected.size })}
          question=${t('webhooks.requeue_selected_question', { count: selected.size, ids: [...selected].map((id) => `#${id}`).join(', ') })}
          confirmLabel=${t('webhooks.requeue_confirm')} onConfirm=${() => requeue('selected', { ids: [...selected] })} />
        <${ConfirmButton} id="requeue-all" className="" label=${t('webhooks.requeue_all')}
          question=${failed.more ? t('webhooks.requeue_all_question_more', { count: number(COUNT_LIMIT) }) : t('webhooks.requeue_all_question', { count: failed.count })}
          confirmLabel=${t('webhooks.requeue_confirm')} onConfirm=${() => requeue('all', { all_failed: true })} />
        <span class="muted" id="failed-count">${t(failed.more ? 'webhooks.failed_count_more' : 'webhooks.failed_count', { count: failed.more ? number(COUNT_LIMIT) : failed.count })}</span>
      </div>`}
      <${Problem} id="requeue-selected-error" text=${refusal?.where === 'selected' && refusal.text} />
      <${Problem} id="requeue-all-error" text=${refusal?.where === 'all' && refusal.text} />
      <${Problem} id="requeue-error" text=${typeof refusal?.where === 'number' && !deliveries.some((d) => d.id === refusal.where) && refusal.text} />
      <${Notice} id="requeue-notice" text=${notice} />
      ${deliveries.length === 0
        ? html`<p class=${status === 'delivered' ? 'empty' : 'empty good'} id="webhooks-none">${t(`webhooks.none.${status || 'undelivered'}`)}</p>`
        : html`<${Table} deliveries=${deliveries} selected=${selected} setSelected=${setSelected} refusal=${refusal} requeue=${requeue} />`}
      <div class="actions pager">
        ${query.cursor && html`<button type="button" id="webhooks-newer" onClick=${newer}>${t('webhooks.newer')}</button>`}
        ${page.meta.next_cursor && html`<button type="button" id="webhooks-older" onClick=${older}>${t('webhooks.older')}</button>`}
      </div>`}
  </section>`;
}

function Table({ deliveries, selected, setSelected, refusal, requeue }) {
  const failedIds = deliveries.filter((d) => d.status === 'failed').map((d) => d.id);
  const all = failedIds.length > 0 && failedIds.every((id) => selected.has(id));
  const toggle = (id, on) => setSelected((previous) => {
    const next = new Set(previous);
    if (on) next.add(id);
    else next.delete(id);
    return next;
  });
  return html`<div class="scroll"><table id="deliveries">
    <thead><tr>
      <th>${failedIds.length > 0 && html`<label class="check"><input type="checkbox" id="select-all" checked=${all} onChange=${(e) => setSelected(e.target.checked ? new Set(failedIds) : new Set())} /><span class="visually-hidden">${t('webhooks.select_all')}</span></label>`}</th>
      <th>${t('webhooks.column.event')}</th><th>${t('webhooks.column.status')}</th><th>${t('webhooks.column.attempts')}</th>
      <th>${t('webhooks.column.next')}</th><th>${t('webhooks.column.error')}</th><th>${t('webhooks.column.created')}</th><th>${t('webhooks.column.finished')}</th><th></th>
    </tr></thead>
    <tbody>
      ${deliveries.map(
        (d) => html`<tr data-delivery=${d.id} data-status=${d.status}>
          <td>${d.status === 'failed' && html`<label class="check"><input type="checkbox" class="select" checked=${selected.has(d.id)} onChange=${(e) => toggle(d.id, e.target.checked)} /><span class="visually-hidden">${t('webhooks.select', { id: d.id })}</span></label>`}</td>
          <td class="what"><strong>${d.event_type ? nameOf('event', d.event_type) : t('webhooks.unknown_event')}</strong> <span class="muted small">#${d.id}</span><span class="url">${d.url}</span></td>
          <td><${Badge} tone=${TONES[d.status]}>${t(`webhooks.status.${d.status}`)}<//></td>
          <td data-label=${t('webhooks.column.attempts')}>${d.attempts}</td>
          <td data-label=${t('webhooks.column.next')}><${Time} at=${d.next_attempt_at} /></td>
          <td data-label=${t('webhooks.column.error')} class="last-error">${d.last_error ?? html`<span class="muted">–</span>`}</td>
          <td data-label=${t('webhooks.column.created')}><${Time} at=${d.created_at} /></td>
          <td data-label=${t('webhooks.column.finished')}><${Time} at=${d.finished_at} /></td>
          <td>${d.status === 'failed' &&
          html`<${ConfirmButton} className="" label=${t('webhooks.requeue')} confirmLabel=${t('webhooks.requeue_confirm')}
              question=${t('webhooks.requeue_question', { id: d.id, event: d.event_type ? nameOf('event', d.event_type) : t('webhooks.unknown_event'), url: d.url })}
              onConfirm=${() => requeue(d.id, { ids: [d.id] })} />`}
            <${Problem} id=${`requeue-error-${d.id}`} text=${refusal?.where === d.id && refusal.text} /></td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}
