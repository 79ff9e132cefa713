import type { Command } from 'commander';
import { parseWhen } from '../arguments.js';
import { runCommand } from '../context.js';
import { CliError, englishText } from '../errors.js';
import { formatTime, isoTime, table } from '../output.js';
import { cliSource } from '../../audit/recorder.js';
import { createAdminKey, keyState, listAdminKeys, revokeAdminKey, setAdminKeyExpiry } from '../../flows/admin/api-keys.js';
import type { AdminApiKey } from '../../store/admin-api-keys.js';

// Keys of the admin REST API (ADMIN_PORT): made, listed, expired and
// revoked only here, from a shell on the server.

export function keyJson(key: AdminApiKey, now: number) {
  return {
    id: key.id,
    name: key.name,
    scope: key.scope,
    prefix: key.prefix,
    state: keyState(key, now),
    created_at: isoTime(key.createdAt),
    expires_at: isoTime(key.expiresAt),
    revoked_at: isoTime(key.revokedAt),
    last_used_at: isoTime(key.lastUsedAt),
  };
}

function keysText(keys: AdminApiKey[], now: number): string {
  if (keys.length === 0) return 'no admin API keys';
  return table(
    ['ID', 'NAME', 'SCOPE', 'PREFIX', 'STATE', 'CREATED', 'EXPIRES', 'LAST USED'],
    keys.map((k) => [String(k.id), k.name, k.scope, `${k.prefix}…`, keyState(k, now), formatTime(k.createdAt), formatTime(k.expiresAt), formatTime(k.lastUsedAt)]),
  );
}

function keyId(text: string): number {
  if (!/^\d{1,15}$/.test(text)) throw CliError.of('not_found', `"${text}" is not a key id`, 'id');
  return Number(text);
}

export function registerAdminKeyCommands(program: Command): void {
  const keys = program.command('admin-keys').description('keys of the admin REST API (ADMIN_PORT): create, list, expire, revoke');

  keys
    .command('create')
    .description('make a key; it is printed once, here, and stored only as a hash')
    .requiredOption('--name <name>', 'who or what uses it (a service, a script), up to 100 characters')
    .option('--scope <scope>', 'read (GET only) or write (everything)', 'read')
    .option('--expires <when>', 'when it stops working: a time from now (30m, 12h, 90d) or an ISO 8601 date or time', parseWhen(Date.now))
    .addHelpText('after', '\nSend it as `Authorization: Bearer <key>`. Records admin_key.created. Errors: required, invalid')
    .action((opts: { name: string; scope: string; expires?: number }, command: Command) =>
      runCommand(command, async (ctx) => {
        const result = await createAdminKey(ctx, cliSource(ctx.now()), { name: opts.name, scope: opts.scope, expiresAt: opts.expires ?? null });
        if (!result.ok) throw CliError.of(result.error.code, englishText(result.error.message), result.error.param);
        const json = { ...keyJson(result.key, ctx.now()), key: result.secret };
        return {
          json,
          text: `${result.secret}\n\nadmin API key ${result.key.id} "${result.key.name}" (${result.key.scope}${result.key.expiresAt ? `, expires ${formatTime(result.key.expiresAt)}` : ''}).\nThis is the only time the key is shown: store it now.`,
        };
      }),
    );

  keys
    .command('list')
    .description('every key: name, scope, state (active, expired, revoked), dates, last use; never a key')
    .action((_opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        const found = await listAdminKeys(ctx);
        return { json: { keys: found.map((k) => keyJson(k, ctx.now())) }, text: keysText(found, ctx.now()) };
      }),
    );

  keys
    .command('revoke')
    .description('stop a key for good: refused at once on every instance')
    .argument('<id>', 'the key id, as `admin-keys list` shows it')
    .addHelpText('after', '\nRecords admin_key.revoked. Errors: not_found')
    .action((id: string, _opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        const result = await revokeAdminKey(ctx, cliSource(ctx.now()), keyId(id));
        if (!result.ok) throw CliError.of('not_found', `no admin API key ${id}`, 'id');
        return { json: { ...keyJson(result.key, ctx.now()), changed: result.changed }, text: result.changed ? `admin API key ${id} revoked` : `admin API key ${id} was already revoked` };
      }),
    );

  keys
    .command('expire')
    .description('set when a key stops working: now (the default), a later time, or never')
    .argument('<id>', 'the key id, as `admin-keys list` shows it')
    .option('--at <when>', 'a time from now (30m, 12h, 90d) or an ISO 8601 date or time', parseWhen(Date.now))
    .option('--never', 'remove the expiry', false)
    .addHelpText('after', '\nRecords admin_key.expiry_changed. Errors: not_found')
    .action((id: string, opts: { at?: number; never: boolean }, command: Command) =>
      runCommand(command, async (ctx) => {
        const expiresAt = opts.never ? null : (opts.at ?? ctx.now());
        const result = await setAdminKeyExpiry(ctx, cliSource(ctx.now()), keyId(id), expiresAt);
        if (!result.ok) throw CliError.of('not_found', `no admin API key ${id}`, 'id');
        return { json: keyJson(result.key, ctx.now()), text: `admin API key ${id} ${expiresAt === null ? 'no longer expires' : `expires ${formatTime(expiresAt)}`}` };
      }),
    );
}
