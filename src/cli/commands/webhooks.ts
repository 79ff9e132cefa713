import { InvalidArgumentError, type Command } from 'commander';
import { wholeNumber } from '../arguments.js';
import { runCommand } from '../context.js';
import { CliError } from '../errors.js';
import { deliveriesText, deliveryJson } from '../audit/view.js';
import { cliSource } from '../../audit/recorder.js';
import { requeueWebhooks, undeliveredWebhooks } from '../../flows/admin/webhooks.js';

export function registerWebhookCommands(program: Command): void {
  const webhooks = program.command('webhooks').description('webhook deliveries not delivered yet, and putting failed ones back in the queue');

  webhooks
    .command('list')
    .description('pending and failed deliveries, newest first (`audit webhooks` lists delivered ones too)')
    .option('--status <status>', 'only pending or only failed deliveries', (value: string) => {
      if (value !== 'pending' && value !== 'failed') throw new InvalidArgumentError('expected pending or failed');
      return value;
    })
    .option('--limit <n>', 'at most this many deliveries', wholeNumber(10_000), 50)
    .option('--before <id>', 'only deliveries with a lower id (the next page starts below the last id shown)', wholeNumber())
    .action((opts: { status?: 'pending' | 'failed'; limit: number; before?: number }, command: Command) =>
      runCommand(command, async (ctx) => {
        const deliveries = await undeliveredWebhooks(ctx, { status: opts.status, beforeId: opts.before, limit: opts.limit });
        const full = deliveries.length === opts.limit;
        const more = full ? `\n(more may follow: --before ${deliveries.at(-1)!.id})` : '';
        return { json: { deliveries: deliveries.map(deliveryJson), next_before: full ? deliveries.at(-1)!.id : null }, text: deliveriesText(deliveries) + more };
      }),
    );

  webhooks
    .command('requeue')
    .description('send failed deliveries again: the ones named, or all with --all-failed')
    .argument('[ids...]', 'delivery ids, as `webhooks list` shows them')
    .option('--all-failed', 'every failed delivery', false)
    .addHelpText(
      'after',
      '\nA running server sends them in its next round, with WEBHOOK_MAX_ATTEMPTS attempts again.\n' +
        'Records a webhook.requeued event. Errors: required, not_found (no such delivery), not_failed (one named is pending or delivered; none is requeued)',
    )
    .action((ids: string[], opts: { allFailed: boolean }, command: Command) =>
      runCommand(command, async (ctx) => {
        if (opts.allFailed === (ids.length > 0)) throw CliError.of('required', 'name the deliveries to requeue, or pass --all-failed (not both)', 'ids');
        const result = await requeueWebhooks(ctx, cliSource(ctx.now()), opts.allFailed ? 'all failed' : ids.map(deliveryId));
        if (!result.ok) {
          if (result.reason === 'not_found') throw CliError.of('not_found', `no webhook delivery ${result.id}`, 'ids');
          throw CliError.of('not_failed', `webhook delivery ${result.id} is ${result.status}, not failed: nothing was requeued`, 'ids');
        }
        const { requeued } = result;
        const text = requeued.length === 0 ? 'no failed deliveries to requeue' : `requeued ${requeued.length} delivery(ies): ${requeued.map((d) => d.id).join(', ')}`;
        return { json: { deliveries: requeued.map(deliveryJson) }, text };
      }),
    );
}

function deliveryId(text: string): number {
  if (!/^\d{1,15}$/.test(text)) throw CliError.of('not_found', `"${text}" is not a delivery id`, 'ids');
  return Number(text);
}
