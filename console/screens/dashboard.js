// The dashboard (home): sign-ins, signups, failed logins and rate-limit
// refusals over the last day, week or month (GET /audit-stats, counted from
// the audit trail), each as a bar chart (uPlot, on a canvas) with its total
// beside it and a table of the same numbers for those who cannot see it.
import uPlot from '../vendor/uplot.js';
import { useEffect, useRef, useState } from '../vendor/hooks.js';
import { read } from '../lib/api.js';
import { language, number, t, timeZone, when } from '../lib/i18n.js';
import { href } from '../lib/router.js';
import { html, Problem } from '../lib/ui.js';

// uPlot's own stylesheet, once, beside the console's.
if (!document.querySelector('link[data-uplot]')) {
  const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/console/assets/vendor/uplot.css' });
  link.dataset.uplot = '';
  document.head.append(link);
}

const RANGES = ['day', 'week', 'month'];
/** Each series: its colour, and the event type the audit screen shows for it. */
const SERIES = [
  { name: 'sign_ins', color: '#2f5bd3', type: 'login.succeeded' },
  { name: 'signups', color: '#12805c', type: 'signup' },
  { name: 'failed_logins', color: '#b54708', type: 'login.failed' },
  { name: 'rate_limit_refusals', color: '#b42318', type: 'rate_limit.refused' },
];

/** How a bucket's start reads on the axis and in the table, in the browser's zone. */
const AXIS = {
  day: new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' }),
  week: new Intl.DateTimeFormat(language, { weekday: 'short', day: 'numeric' }),
  month: new Intl.DateTimeFormat(language, { month: 'short', day: 'numeric' }),
};

function Chart({ id, stats, series }) {
  const box = useRef(null);
  useEffect(() => {
    const element = box.current;
    const xs = stats.buckets.map((b) => Date.parse(b) / 1000);
    const step = stats.bucket_seconds;
    const format = AXIS[stats.range];
    const plot = new uPlot(
      {
        width: Math.max(200, element.clientWidth),
        height: 170,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: true, range: () => [xs[0], xs.at(-1) + step] }, y: { range: (u, min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
        axes: [
          { stroke: '#667085', grid: { show: false }, ticks: { stroke: '#dde1e8' }, values: (u, splits) => splits.map((s) => format.format(new Date(s * 1000))), space: stats.range === 'day' ? 60 : 70 },
          { stroke: '#667085', grid: { stroke: '#eceef2' }, ticks: { show: false }, size: 44, values: (u, splits) => splits.map((s) => (Number.isInteger(s) ? number(s) : '')) },
        ],
        series: [{}, { stroke: series.color, fill: `${series.color}cc`, width: 0, paths: uPlot.paths.bars({ size: [0.8, 60], align: 1 }), points: { show: false } }],
      },
      [xs, stats.series[series.name].counts],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(200, element.clientWidth), height: 170 }));
    resize.observe(element);
    return () => (resize.disconnect(), plot.destroy());
  }, [stats, series]);
  return html`<div class="chart" id=${`${id}-chart`} ref=${box} aria-hidden="true"></div>`;
}

function SeriesCard({ stats, series }) {
  const id = `series-${series.name}`;
  const { counts, total } = stats.series[series.name];
  const format = AXIS[stats.range];
  const peak = Math.max(...counts);
  const peakAt = counts.indexOf(peak);
  const title = t(`dashboard.series.${series.name}`);
  const summary =
    total === 0
      ? t('dashboard.summary_none', { series: title, range: t(`dashboard.range.${stats.range}`) })
      : t('dashboard.summary', { series: title, total, range: t(`dashboard.range.${stats.range}`), peak, at: when(stats.buckets[peakAt]) });
  return html`<figure class="card" id=${id} aria-labelledby=${`${id}-title`}>
    <div class="card-head">
      <h2 id=${`${id}-title`}>${title}</h2>
      <p class="total"><span id=${`${id}-total`} class="number">${number(total)}</span> <span class="muted">${t(`dashboard.in_range.${stats.range}`)}</span></p>
    </div>
    <${Chart} id=${id} stats=${stats} series=${series} />
    <figcaption id=${`${id}-summary`}>${summary}</figcaption>
    <div class="card-foot">
      <a id=${`${id}-events`} href=${href('audit', { type: series.type, since: stats.from, until: stats.until })}>${t('dashboard.see_events')}</a>
      <details>
        <summary>${t('dashboard.as_table')}</summary>
        <div class="scroll"><table id=${`${id}-table`}>
          <thead><tr><th>${t('dashboard.column.from')}</th><th>${t('dashboard.column.count')}</th></tr></thead>
          <tbody>${stats.buckets.map((b, i) => html`<tr><td><time datetime=${b}>${format.format(new Date(b))}${stats.range === 'day' ? '' : ` ${new Date(b).toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit' })}`}</time></td><td>${number(counts[i])}</td></tr>`)}</tbody>
        </table></div>
      </details>
    </div>
  </figure>`;
}

export function Dashboard({ query }) {
  const range = RANGES.includes(query.range) ? query.range : 'day';
  const [stats, setStats] = useState(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let live = true;
    read(`/audit-stats?range=${range}`).then(
      (answer) => live && (setStats(answer.data), setError('')),
      (e) => live && setError(e.message),
    );
    return () => void (live = false);
  }, [range]);

  return html`<section id="dashboard" class="plain">
    <div class="heading">
      <h1>${t('dashboard.title')}</h1>
      <nav class="segmented" aria-label=${t('dashboard.range_label')}>
        ${RANGES.map((r) => html`<a id=${`range-${r}`} href=${href('dashboard', { range: r })} aria-current=${r === range ? 'true' : undefined}>${t(`dashboard.range.${r}`)}</a>`)}
      </nav>
    </div>
    <${Problem} id="dashboard-error" text=${error} />
    ${stats &&
    stats.range === range &&
    html`<p class="muted" id="dashboard-period">${t('dashboard.period', { from: when(stats.from), until: when(stats.until), zone: timeZone })}</p>
      <div class="cards" id="dashboard-charts" data-range=${stats.range}>${SERIES.map((s) => html`<${SeriesCard} key=${s.name} stats=${stats} series=${s} />`)}</div>`}
  </section>`;
}
