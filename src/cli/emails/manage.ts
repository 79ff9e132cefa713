import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import type { User } from '../../domain/user.js';
import type { EmailAddress } from '../../store/email-addresses.js';
import { cliSource } from '../../audit/recorder.js';
import * as addresses from '../../flows/admin/email-addresses.js';

// The `emails` commands over the admin use cases (flows/admin/email-addresses.ts):
// the CLI only turns their refusals into its errors.

function unwrap<T>(result: addresses.AddressResult<T>, email: string): T {
  if (result.ok) return result.value;
  if (result.error.code === 'not_found') throw CliError.of('not_found', `no user has the address ${email}`, 'email');
  throw CliError.fromFields([result.error]);
}

export async function addAddress(ctx: CliContext, user: User, input: { email: string; verified: boolean; primary: boolean }): Promise<EmailAddress> {
  return unwrap(await addresses.addAddress(ctx, cliSource(ctx.now()), user, input), input.email);
}

export async function verifyAddress(ctx: CliContext, email: string): Promise<{ address: EmailAddress; changed: boolean }> {
  return unwrap(await addresses.verifyAddress(ctx, cliSource(ctx.now()), email), email);
}

export async function makePrimary(ctx: CliContext, email: string): Promise<EmailAddress> {
  return unwrap(await addresses.makePrimary(ctx, cliSource(ctx.now()), email), email);
}

export async function removeAddress(ctx: CliContext, email: string): Promise<EmailAddress> {
  return unwrap(await addresses.removeAddress(ctx, cliSource(ctx.now()), email), email);
}

export function addressJson(address: EmailAddress) {
  return { user_id: address.userId, email: address.email, verified: address.verified, primary: address.primary };
}
