import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { isoTime } from '../output.js';
import type { User } from '../../domain/user.js';
import { cliSource } from '../../audit/recorder.js';
import { createSetupLink, setupLinkUrl, unverifiedAddressBlocksEnrolment } from '../../flows/admin/setup-links.js';

// `users set-admin <user> --setup-link`: a one-time link to the console
// (flows/admin/setup-links.ts), printed once.

/**
 * Where the console is: --console-url, else the admin listener as the
 * server's settings place it (ADMIN_HOST:ADMIN_PORT, loopback for a wildcard).
 */
function consoleUrl(ctx: CliContext, given: string | undefined): string {
  if (given !== undefined) {
    if (!/^https?:\/\/[^/\s]+/.test(given)) throw CliError.of('invalid', '--console-url: expected an http(s) URL, such as https://admin.example.com/console', 'console_url');
    return given.replace(/\/+$/, '').replace(/(\/console)?$/, '/console');
  }
  const { port, host } = ctx.config.admin;
  if (port === undefined || port === 0) throw CliError.of('config_error', 'ADMIN_PORT is not set, so there is no console to link to: set it as the server has it, or pass --console-url');
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}/console`;
}

export async function printSetupLink(ctx: CliContext, user: User, opts: { expiresAt: number; consoleUrl?: string }) {
  const base = consoleUrl(ctx, opts.consoleUrl);
  const made = await createSetupLink(ctx, cliSource(ctx.now()), user, opts.expiresAt);
  if (!made.ok) throw CliError.of(made.error.code, made.error.message, made.error.param);
  const url = setupLinkUrl(base, made.token);
  const notes: string[] = [];
  const { mfa } = ctx.config;
  if (!mfa.enabled) notes.push('MFA_ENABLED is false: no second factor can be set up, so nobody can sign in to the console.');
  else if (await unverifiedAddressBlocksEnrolment(ctx, user.id)) {
    notes.push('An address of this user is unverified: no second factor can be added until it is verified (`emails verify <address>`).');
  }
  return {
    json: { setup_link: url, expires_at: isoTime(made.link.expiresAt), notes },
    text: [`setup link (works once, until ${isoTime(made.link.expiresAt)}; shown only now):`, url, ...notes.map((n) => `note: ${n}`)].join('\n'),
  };
}
