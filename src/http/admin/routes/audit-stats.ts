import { Type } from 'typebox';
import { auditStats as stats, STATS_RANGES, type StatsRange } from '../../../flows/admin/audit-trail.js';
import { adminEndpoint, ok } from '../endpoint.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS } from './common.js';

// flows/admin/audit-trail.ts: the dashboard's numbers, counted from the audit trail.

const Series = Type.Object({
  counts: Type.Array(Type.Integer(), { description: 'One count per bucket, in the order of `buckets`.' }),
  total: Type.Integer(),
});

const Stats = Type.Object({
  range: Type.String(),
  bucket_seconds: Type.Integer({ description: '3600 (day), 21600 (week) or 86400 (month).' }),
  buckets: Type.Array(Type.String(), { description: "Each bucket's start, ISO 8601 in UTC; the last holds now." }),
  from: Type.String({ description: 'The first bucket’s start.' }),
  until: Type.String({ description: 'The last bucket’s end (exclusive).' }),
  series: Type.Object({ sign_ins: Series, signups: Series, failed_logins: Series, rate_limit_refusals: Series }),
});

export const auditStats = adminEndpoint({
  method: 'GET',
  path: '/audit-stats',
  tags: ['Audit trail'],
  summary: 'Count sign-ins, signups, failed logins and rate-limit refusals over time',
  description: `Counts over the last day (24 hourly buckets), week (28 buckets of 6 hours) or month (30 daily buckets), \`range\` \`day\` by default; bucket edges fall on UTC hours and midnights, the last bucket holds now, and every bucket is present (0 when nothing happened). \`sign_ins\` counts \`login.succeeded\` events, \`signups\` \`signup\`, \`failed_logins\` \`login.failed\` (whatever the reason, rate limits included), \`rate_limit_refusals\` the requests any rate limit refused (the \`refusals\` of \`rate_limit.refused\` events, which each process writes once a minute per action; this route writes its own first). ${COMMON_ERRORS}`,
  response: responses({ 200: envelope(Stats) }),
  querystring: Type.Object({ range: Type.Optional(Type.Union(STATS_RANGES.map((r) => Type.Literal(r)), { description: '`day`, `week` or `month`.' })) }, { additionalProperties: false }),
  run: async (deps, _call, { query }) => {
    const answer = await stats(deps, (query.range ?? 'day') as StatsRange);
    const iso = (ms: number) => new Date(ms).toISOString();
    return ok({
      range: answer.range,
      bucket_seconds: answer.bucketMs / 1000,
      buckets: answer.buckets.map(iso),
      from: iso(answer.buckets[0]!),
      until: iso(answer.until),
      series: answer.series,
    });
  },
});
