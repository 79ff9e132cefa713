import type { Command } from 'commander';
import { runCommand } from '../context.js';
import { CliError, englishText } from '../errors.js';
import { formatTime, table } from '../output.js';
import { createInitialAccessToken, initialAccessTokens, revokeInitialAccessToken } from '../../flows/admin/idp-initial-access-tokens.js';
import type { InitialAccessTokenRecord } from '../../store/idp-registration.js';
import { cliSource } from '../../audit/recorder.js';

// `idp initial-access-tokens`: what lets a client register itself under
// IDP_OIDC_REGISTRATION=initial_access_token (flows/admin/idp-initial-access-tokens.ts).

const tokenJson = (t: InitialAccessTokenRecord) => ({
  id: t.id,
  created_at: new Date(t.createdAt).toISOString(),
  expires_at: t.expiresAt === null ? null : new Date(t.expiresAt).toISOString(),
  uses_left: t.usesLeft,
});

function positiveInt(value: string): number {
  if (!/^\d+$/.test(value)) throw CliError.of('invalid', `"${value}" is not a whole number`);
  return Number(value);
}

export function registerInitialAccessTokenCommands(idp: Command): void {
  const tokens = idp.command('initial-access-tokens').description('tokens that let a client register itself at the registration endpoint (RFC 7591)');

  tokens
    .command('create')
    .description('make a token, printed once: hand it to whoever registers the client')
    .option('--expires-in <seconds>', 'seconds it is valid (60 to 31622400; default: until revoked)', positiveInt)
    .option('--uses <n>', 'registrations it allows (default: any number)', positiveInt)
    .addHelpText('after', '\nErrors: invalid (param expires_in or uses)')
    .action((opts: { expiresIn?: number; uses?: number }, command: Command) =>
      runCommand(command, async (ctx) => {
        const result = await createInitialAccessToken(ctx, cliSource(ctx.now()), { expiresIn: opts.expiresIn, uses: opts.uses });
        if (!result.ok) throw CliError.of('invalid', `${result.param}: ${englishText(result.message)}`, result.param);
        const limits = [result.record.expiresAt === null ? 'no expiry' : `expires ${formatTime(result.record.expiresAt)}`, result.record.usesLeft === null ? 'any number of uses' : `${result.record.usesLeft} use(s)`];
        return {
          json: { initial_access_token: tokenJson(result.record), token: result.token },
          text: `initial access token ${result.record.id} (${limits.join(', ')})\ntoken: ${result.token}\n(shown only now)`,
        };
      }),
    );

  tokens
    .command('list')
    .description('the tokens that may still register a client, oldest first')
    .action((_opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        const all = await initialAccessTokens(ctx, ctx.now());
        const text = all.length === 0 ? 'no initial access tokens' : table(['id', 'created', 'expires', 'uses left'], all.map((t) => [String(t.id), formatTime(t.createdAt), t.expiresAt === null ? '-' : formatTime(t.expiresAt), t.usesLeft === null ? 'any' : String(t.usesLeft)]));
        return { json: { initial_access_tokens: all.map(tokenJson) }, text };
      }),
    );

  tokens
    .command('revoke')
    .description('the token registers no more clients (those it registered stay)')
    .argument('<id>', 'as listed', positiveInt)
    .addHelpText('after', '\nErrors: not_found')
    .action((id: number, _opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        if (!(await revokeInitialAccessToken(ctx, cliSource(ctx.now()), id))) throw CliError.of('not_found', `no initial access token ${id}`, 'id');
        return { json: { id, revoked: true }, text: `initial access token ${id} revoked` };
      }),
    );
}
