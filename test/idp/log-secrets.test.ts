import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { createLogger } from '../../src/observability/logger.js';
import { IDP_ENV, codeFlow, loggedInBrowser, registerClient, relyingParty } from './support.js';
import * as oidc from 'openid-client';

// The OpenID provider at LOG_LEVEL=trace: no client secret, code, token or
// user code in a log line.

describe('OpenID provider: logs hold no secret [sqlite]', () => {
  const lines: string[] = [];
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', IDP_ENV, { logger: createLogger('trace', { write: (line: string) => void lines.push(line) }) });
  });
  after(async () => server?.close());

  it('runs the grants and finds none of their secrets in the log', async () => {
    const client = await registerClient(server);
    const rp = await relyingParty(server, client);
    const { api } = await loggedInBrowser(server);
    const { tokens, callback } = await codeFlow(server, rp, api);
    const refreshed = await oidc.refreshTokenGrant(rp, tokens.refresh_token!);
    await oidc.tokenIntrospection(rp, refreshed.access_token);
    await oidc.tokenRevocation(rp, refreshed.refresh_token!);
    const device = await registerClient(server, { type: 'public', grantTypes: ['urn:ietf:params:oauth:grant-type:device_code'], redirectUris: [] });
    const started = await oidc.initiateDeviceAuthorization(await relyingParty(server, device), { scope: 'openid' });
    await fetch(started.verification_uri_complete!, { redirect: 'manual' });

    const secrets: Record<string, string> = {
      'client secret': client.secret!,
      code: callback.searchParams.get('code')!,
      'access token': tokens.access_token,
      'refresh token': tokens.refresh_token!,
      'ID token': tokens.id_token!,
      'rotated refresh token': refreshed.refresh_token!,
      'device code': started.device_code,
      'user code': started.user_code,
    };
    assert.ok(lines.length > 10, 'the server logged at trace');
    const log = lines.join('\n');
    for (const [label, secret] of Object.entries(secrets)) assert.ok(!log.includes(secret), `the ${label} is in the log`);
  });
});
