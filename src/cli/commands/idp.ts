import { readFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { runCommand } from '../context.js';
import { CliError, englishText } from '../errors.js';
import { formatTime, table } from '../output.js';
import { createIdpClient, GRANT_TYPES, idpClients, removeIdpClient, replaceIdpClientKeys, rotateIdpClientSecret, type IdpClientInput } from '../../flows/admin/idp-clients.js';
import type { IdpClientRecord } from '../../store/idp-clients.js';
import { cliSource } from '../../audit/recorder.js';
import { idpClientView } from '../../http/admin/views.js';
import { CONFIDENTIAL_AUTH_METHODS } from '../../idp/client-auth-methods.js';
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
    ...(client.resourceServer ? ['  resource server (introspects any client\'s tokens)'] : []),
    ...(client.tokenEndpointAuthMethod === 'private_key_jwt' ? [`  authenticates:  private_key_jwt, keys ${client.jwksUri ?? `registered (${client.jwks?.keys.length ?? 0})`}`] : []),
    ...(client.requirePushedAuthorizationRequests ? ['  requires pushed authorization requests'] : []),
  ].join('\n');
}

/** The JWK Set in --jwks-file, parsed (the flow checks its keys). */
async function readJwksFile(path: string | undefined): Promise<unknown> {
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw CliError.of('invalid', `cannot read ${path}`, 'jwks');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw CliError.of('invalid', `${path} is not JSON (a JWK Set: {"keys": [...]})`, 'jwks');
  }
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
    .option('--resource-server', 'may introspect tokens issued to other clients (a confidential API that receives them)', false)
    .addOption(new Option('--auth-method <method>', 'how a confidential client authenticates: its secret (sent either way), or private_key_jwt (no secret; give --jwks-file or --jwks-uri)').choices([...CONFIDENTIAL_AUTH_METHODS]))
    .option('--jwks-file <path>', 'private_key_jwt: a JSON file with the client\'s public JWK Set')
    .option('--jwks-uri <url>', 'private_key_jwt: an https URL serving the client\'s public JWK Set')
    .option('--require-par', 'authorization requests only through the PAR endpoint (RFC 9126)', false)
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
          resourceServer: opts.resourceServer,
          tokenEndpointAuthMethod: opts.authMethod,
          jwks: await readJwksFile(opts.jwksFile),
          jwksUri: opts.jwksUri,
          requirePushedAuthorizationRequests: opts.requirePar,
        };
        const result = await createIdpClient(ctx, cliSource(ctx.now()), input);
        if (!result.ok) {
          if (result.reason === 'invalid') throw CliError.of('invalid', englishText(result.message), result.param);
          throw CliError.of('exists', `a client with id ${input.id} exists`, 'id');
        }
        const secretLine = result.secret
          ? `\nclient secret: ${result.secret}\n(shown only now: store it with the application)`
          : result.client.type === 'public'
            ? '\n(public client: no secret; it must use PKCE)'
            : '\n(no secret: it signs its assertions with its private key)';
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
    .addHelpText('after', '\nErrors: not_found, public_client (public clients have no secret), private_key_jwt_client (neither have clients that sign with their keys)')
    .action((id: string, _opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        const result = await rotateIdpClientSecret(ctx, cliSource(ctx.now()), id);
        if (!result.ok) {
          if (result.reason === 'not_found') throw CliError.of('not_found', `no client ${id}`, 'client_id');
          if (result.reason === 'private_key_jwt_client') throw CliError.of('private_key_jwt_client', `client ${id} authenticates with its keys (private_key_jwt): it has no secret`, 'client_id');
          throw CliError.of('public_client', `client ${id} is public: it has no secret`, 'client_id');
        }
        return { json: { client_id: id, client_secret: result.secret }, text: `client secret: ${result.secret}\n(shown only now)` };
      }),
    );

  clients
    .command('set-keys')
    .description('new public keys for a private_key_jwt client (a JWK Set file or a jwks_uri); assertions signed with a key no longer there stop working at once')
    .argument('<client_id>')
    .option('--jwks-file <path>', 'a JSON file with the client\'s public JWK Set')
    .option('--jwks-uri <url>', 'an https URL serving the client\'s public JWK Set')
    .addHelpText('after', '\nErrors: not_found, invalid (param jwks or jwks_uri; also for a client that does not use private_key_jwt)')
    .action((id: string, opts: Record<string, any>, command: Command) =>
      runCommand(command, async (ctx) => {
        const result = await replaceIdpClientKeys(ctx, cliSource(ctx.now()), id, { jwks: await readJwksFile(opts.jwksFile), jwksUri: opts.jwksUri });
        if (!result.ok) {
          if (result.reason === 'invalid') throw CliError.of('invalid', englishText(result.message), result.param);
          throw CliError.of('not_found', `no client ${id}`, 'client_id');
        }
        return { json: { client: clientJson(result.client) }, text: clientText(result.client) };
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
