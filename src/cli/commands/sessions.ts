import type { Command } from 'commander';
import { runCommand } from '../context.js';
import { CliError } from '../errors.js';
import { resolveUser, USER_REF_HELP } from '../user-ref.js';
import { sessionJson, sessionsText } from '../sessions/manage.js';
import { liveSessionsOf, revokeSessions } from '../../flows/admin/sessions.js';
import { cliSource } from '../../audit/recorder.js';

export function registerSessionCommands(program: Command): void {
  const sessions = program.command('sessions').description("list and revoke users' sessions");

  sessions
    .command('list')
    .description("a user's live sessions, oldest first")
    .argument('<user>', USER_REF_HELP)
    .action((ref: string, _opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        const user = await resolveUser(ctx, ref);
        const live = await liveSessionsOf(ctx, user.id, ctx.now());
        return { json: { user_id: user.id, sessions: live.map(sessionJson) }, text: sessionsText(live) };
      }),
    );

  sessions
    .command('revoke')
    .description('end sessions of a user: the ones named, or all with --all')
    .argument('<user>', USER_REF_HELP)
    .argument('[ids...]', 'session ids, as `sessions list` shows them')
    .option('--all', 'end every session of the user', false)
    .addHelpText('after', '\nCookies, session tokens and refresh tokens of those sessions stop working at once.\nErrors: not_found (no such user, or a session id that is not theirs), required')
    .action((ref: string, ids: string[], opts: { all: boolean }, command: Command) =>
      runCommand(command, async (ctx) => {
        if (!opts.all && ids.length === 0) throw CliError.of('required', 'name the sessions to end, or pass --all', 'ids');
        const user = await resolveUser(ctx, ref);
        const which = opts.all ? 'all' : ids.map(sessionId);
        const result = await revokeSessions(ctx, cliSource(ctx.now()), user.id, which);
        if (!result.ok) throw CliError.of('not_found', `the user has no live session ${result.id}`, 'session');
        const ended = result.ended;
        return { json: { user_id: user.id, sessions_ended: ended }, text: `${ended} session(s) of user ${user.id} ended` };
      }),
    );
}

function sessionId(text: string): number {
  if (!/^\d{1,15}$/.test(text)) throw CliError.of('not_found', `"${text}" is not a session id`, 'ids');
  return Number(text);
}
