import { InvalidArgumentError, type Command } from 'commander';
import { wholeNumber } from '../arguments.js';
import { runCommand } from '../context.js';
import { CliError } from '../errors.js';
import { resolveUser, USER_REF_HELP } from '../user-ref.js';
import { parseSince } from '../audit/since.js';
import { deliveriesText, deliveryJson, eventJson, eventsText } from '../audit/view.js';
import { auditEvents } from '../../flows/admin/audit-trail.js';
import type { DeliveryStatus } from '../../store/webhook-deliveries.js';
import { webhookDeliveries } from '../../flows/admin/webhooks.js';
import { AUDIT_EVENT_TYPES } from '../../domain/audit-event.js';
import type { AdminDeps } from '../../flows/admin/webhooks.js';

/** --type, repeatable and comma-separated; each must be a known event type. */
function collectTypes(value: string, previous: string[] = []): string[] {
  const types = value.split(',').map((t) => t.trim()).filter(Boolean);
  const unknown = types.find((t) => !(AUDIT_EVENT_TYPES as readonly string[]).includes(t));
  if (unknown) throw new InvalidArgumentError(`"${unknown}" is not an event type; one of: ${AUDIT_EVENT_TYPES.join(', ')}`);
  return [...previous, ...types];
}

/** The user id to filter on: a deleted user's history stays listable by the id. */
async function userIdOf(deps: AdminDeps, ref: string): Promise<number> {
  try {
    return (await resolveUser(deps, ref)).id;
  } catch (error) {
    const id = /^(?:id:)?(\d{1,15})$/.exec(ref);
    if (error instanceof CliError && id) return Number(id[1]);
    throw error;
  }
}

export function registerAuditCommands(program: Command): void {
  const audit = program.command('audit').description('the audit trail of security events, and their webhook deliveries');

  audit
    .command('list')
    .description('security events, newest first')
    .option('--user <user>', `only this user's events: ${USER_REF_HELP}; a deleted user by id`)
    .option('--type <types>', 'only these event types (comma-separated, or the option repeated)', collectTypes)
    .option('--since <when>', 'only events since a time ago (30m, 24h, 7d) or an ISO 8601 date or time', parseSince(Date.now))
    .option('--limit <n>', 'at most this many events', wholeNumber(10_000), 50)
    .option('--before <id>', 'only events with a lower id (the next page starts below the last id shown)', wholeNumber())
    .addHelpText('after', `\nEvent types: ${AUDIT_EVENT_TYPES.join(', ')}\nErrors: not_found (no such user)`)
    .action((opts: { user?: string; type?: string[]; since?: number; limit: number; before?: number }, command: Command) =>
      runCommand(command, async (ctx) => {
        const userId = opts.user === undefined ? undefined : await userIdOf(ctx, opts.user);
        const events = await auditEvents(ctx, { userId, types: opts.type, since: opts.since, beforeId: opts.before, limit: opts.limit });
        const full = events.length === opts.limit;
        const more = full ? `\n(more may follow: --before ${events.at(-1)!.id})` : '';
        return { json: { events: events.map(eventJson), next_before: full ? events.at(-1)!.id : null }, text: eventsText(events) + more };
      }),
    );

  audit
    .command('webhooks')
    .description('webhook deliveries, newest first: pending, delivered, or failed after their last attempt')
    .option('--status <status>', 'only pending, delivered or failed deliveries', (value: string) => {
      if (!['pending', 'delivered', 'failed'].includes(value)) throw new InvalidArgumentError('expected pending, delivered or failed');
      return value as DeliveryStatus;
    })
    .option('--event <id>', 'only the deliveries of this event (its event_id)')
    .option('--limit <n>', 'at most this many deliveries', wholeNumber(10_000), 50)
    .action((opts: { status?: DeliveryStatus; event?: string; limit: number }, command: Command) =>
      runCommand(command, async (ctx) => {
        const deliveries = await webhookDeliveries(ctx, { status: opts.status, eventId: opts.event, limit: opts.limit });
        return { json: { deliveries: deliveries.map(deliveryJson) }, text: deliveriesText(deliveries) };
      }),
    );
}
