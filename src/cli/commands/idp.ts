import { Option, type Command } from 'commander';
import { runCommand } from '../context.js';
import { CliError } from '../errors.js';
import { formatTime, table } from '../output.js';
import { createIdpClient, GRANT_TYPES, idpClients, removeIdpClient, rotateIdpClientSecret, type IdpClientInput } from '../../flows/admin/idp-clients.js';
import type { IdpClientRecord } from '../../store/idp-clients.js';
import { cliSource } from '../../audit/recorder.js';
import { idpClientView } from '../../http/admin/views.js';
import { registerInitialAccessTokenCommands } from './idp-initial-access-tokens.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

// The same shape as the admin API's (http/admin/views.ts).
const clientJson = idpClientView;

function clientText(client: IdpClientRecord): string {
  return [
    `client ${client.id} (${client.name}), ${client.type}`,
    `  grant types:    ${client.grantTypes.join(' ')}`,
    `  scopes:         ${client.scopes.join(' ')}${client.defaultScopes.length ? ` (default: ${client.defaultScopes.join(' ')})` : ''}`,
    `  redirect URIs:  ${client.redirectUris.join(' ') || '-'}`,
    ...(client.corsOrigins.length ? [`  CORS origins:   ${client.corsOrigins.join(' ')}`] : []),
    ...(client.skipConsent ? ['  skips consent'] : []),
  ].join('\n');
}

export function registerIdpCommands(program: Command): void {
  const idp = program.command('idp').description('the OpenID provider (IDP_OIDC_ENABLED): its clients, the applications users sign in to with this server');
  registerInitialAccessTokenCommands(idp);
  const clients = idp.command('clients').description('register, list, rotate the secret of and delete OpenID clients');

  clients
    .command('create')
    .description('register a client; a confidential client\'s secret is printed once, keep it')
    .requiredOption('--name <name>', 'shown to users on the consent page')
    .addOption(new Option('--type <type>', 'confidential (has a secret) or public (a SPA, mobile or CLI app; PKCE required)').choices(['confidential', 'public']).default('confidential'))
    .option('--id <client_id>', 'the client id (default: a random one)')
    .option('--redirect-uri <uri>', 'an allowed redirect URI (repeat for more)', collect)
    .option('--post-logout-redirect-uri <uri>', 'where RP-initiated logout may return to (repeat for more)', collect)
    .option('--scope <scope>', 'a scope the client may request (repeat; default: openid)', collect)
    .option('--default-scope <scope>', 'granted when the client asks for none (repeat)', collect)
    .option('--grant-type <type>', `an allowed grant type (repeat; default: authorization_code): ${GRANT_TYPES.join(', ')}`, collect)
    .option('--response-type <type>', 'an allowed response type (repeat; default: code)', collect)
    .option('--cors-origin <origin>', 'an origin whose scripts may call the token, userinfo and revocation endpoints (repeat)', collect)
    .option('--allow-uri-wildcards', 'a * in the host of redirect URIs and origins matches one DNS label', false)
    .option('--skip-consent', 'no consent page for this client (a first-party application)', false)
    .option('--backchannel-logout-uri <uri>', 'told (OpenID back-channel logout) when a user\'s session here ends')
    .addHelpText('after', '\nErrors: invalid (a value the client model refuses; param names it), exists (the id is taken)')
    .action((opts: Record<string, any>, command: Command) =>
      runCommand(command, async (ctx) => {
        const input: IdpClientInput = {
          name: opts.name,
          type: opts.type,
          id: opts.id,
          redirectUris: opts.redirectUri,
          postLogoutRedirectUris: opts.postLogoutRedirectUri,
          scopes: opts.scope,
          defaultScopes: opts.defaultScope,
          grantTypes: opts.grantType,
          responseTypes: opts.responseType,
          corsOrigins: opts.corsOrigin,
          allowUriWildcards: opts.allowUriWildcards,
          skipConsent: opts.skipConsent,
          backchannelLogoutUri: opts.backchannelLogoutUri ?? null,
        };
        const result = await createIdpClient(ctx, cliSource(ctx.now()), input);
        if (!result.ok) {
          if (result.reason === 'invalid') throw CliError.of('invalid', result.message, result.param);
          throw CliError.of('exists', `a client with id ${input.id} exists`, 'id');
        }
        const secretLine = result.secret ? `\nclient secret: ${result.secret}\n(shown only now: store it with the application)` : '\n(public client: no secret; it must use PKCE)';
        return { json: { client: clientJson(result.client), client_secret: result.secret }, text: clientText(result.client) + secretLine };
      }),
    );

  clients
    .command('list')
    .description('every registered client, oldest first')
    .action((_opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        const all = await idpClients(ctx);
        const text = all.length === 0 ? 'no clients' : table(['id', 'name', 'type', 'grant types', 'created'], all.map((c) => [c.id, c.name, c.type, c.grantTypes.join(','), formatTime(c.createdAt)]));
        return { json: { clients: all.map(clientJson) }, text };
      }),
    );

  clients
    .command('rotate-secret')
    .description('a new secret for a confidential client, printed once; the old one stops working at once')
    .argument('<client_id>')
    .addHelpText('after', '\nErrors: not_found, public_client (public clients have no secret)')
    .action((id: string, _opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        const result = await rotateIdpClientSecret(ctx, cliSource(ctx.now()), id);
        if (!result.ok) {
          if (result.reason === 'not_found') throw CliError.of('not_found', `no client ${id}`, 'client_id');
          throw CliError.of('public_client', `client ${id} is public: it has no secret`, 'client_id');
        }
        return { json: { client_id: id, client_secret: result.secret }, text: `client secret: ${result.secret}\n(shown only now)` };
      }),
    );

  clients
    .command('delete')
    .description('remove a client; its tokens stop working')
    .argument('<client_id>')
    .addHelpText('after', '\nErrors: not_found')
    .action((id: string, _opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        if (!(await removeIdpClient(ctx, cliSource(ctx.now()), id))) throw CliError.of('not_found', `no client ${id}`, 'client_id');
        return { json: { client_id: id, deleted: true }, text: `client ${id} deleted` };
      }),
    );
}
