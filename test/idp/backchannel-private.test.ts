import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { deliveriesOf, startReceiver, until, type Receiver } from '../audit/support.js';
import { createIdpClient } from '../../src/flows/admin/idp-clients.js';
import { cliSource } from '../../src/audit/recorder.js';
import { isPrivateHost } from '../../src/messaging/private-address.js';
import { IDP_ENV, REDIRECT_URI, codeFlow, loggedInBrowser, registerClient, relyingParty } from './support.js';

// Issue 33, finding 8c: a back-channel logout URI is POSTed to by the server
// itself, so without IDP_OIDC_BACKCHANNEL_LOGOUT_ALLOW_PRIVATE it may not
// name a private address, and a delivery does not connect to one, whatever
// the name resolves to. (backchannel.test.ts allows them, for its receiver
// on 127.0.0.1.)

describe('back-channel logout: private hosts, as URL normalises them', () => {
  it('private, loopback, link-local, unique-local and unspecified hosts', () => {
    for (const uri of ['http://127.0.0.1/', 'http://127.1.2.3/', 'http://2130706433/', 'http://0x7f000001/', 'http://0x7f.1/', 'http://017700000001/', 'http://0/', 'http://10.1.2.3/', 'http://172.16.0.1/', 'http://192.168.1.1/', 'http://169.254.169.254/', 'http://100.64.0.1/', 'http://[::1]/', 'http://[::]/', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:a9fe:a9fe]/', 'http://[fd00::1]/', 'http://[fe80::1]/', 'http://localhost/', 'http://LOCALHOST./', 'http://rp.localhost/']) {
      assert.equal(isPrivateHost(new URL(uri).hostname), true, uri);
    }
    for (const uri of ['http://8.8.8.8/', 'http://172.32.0.1/', 'http://[2001:db8::1]/', 'http://[::ffff:8.8.8.8]/', 'https://rp.example.com/', 'http://localhost.example.com/']) {
      assert.equal(isPrivateHost(new URL(uri).hostname), false, uri);
    }
  });
});

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => receiver?.close());

describeEachDatabase('OpenID provider: back-channel logout to private addresses', { ...IDP_ENV, WEBHOOK_POLL_INTERVAL_MS: '20' }, ({ server }) => {
  it('refuses them at registration, naming the field', async () => {
    const register = (uri: string) => createIdpClient(server().app.deps, cliSource(server().clock.now()), { name: 'RP', redirectUris: [REDIRECT_URI], backchannelLogoutUri: uri });
    for (const uri of [receiver.url, `http://localhost:${receiver.port}/hooks`, `http://[::ffff:127.0.0.1]:${receiver.port}/hooks`, 'http://2130706433/', 'http://169.254.169.254/logout', 'http://[fd00::1]/']) {
      const result = await register(uri);
      assert.ok(!result.ok && result.reason === 'invalid' && result.param === 'backchannel_logout_uri', `${uri}: ${JSON.stringify(result)}`);
    }
    assert.ok((await register('https://rp.example.com/logout')).ok);
  });

  it('and does not deliver to one: an address, or a name that resolves to one', async () => {
    // Stored before the rule (registration refuses them now): the sender checks what it connects to.
    const urls = [`http://localhost:${receiver.port}/hooks`, `http://127.0.0.1:${receiver.port}/hooks`];
    const { api } = await loggedInBrowser(server());
    for (const url of urls) {
      const client = await registerClient(server());
      await server().app.deps.db.updateTable('idp_clients').set({ backchannel_logout_uri: url }).where('id', '=', client.id).execute();
      await codeFlow(server(), await relyingParty(server(), client), api);
    }
    assert.equal((await api.delete('/auth/session')).status, 401);
    const refused = await until('both deliveries attempted', async () => {
      // An attempt in flight has its count raised already, its outcome not yet written.
      const attempted = (await deliveriesOf(server())).filter((d) => urls.includes(d.url) && (d.lastError !== null || d.status === 'delivered'));
      return attempted.length === urls.length && attempted;
    });
    for (const delivery of refused) assert.equal(delivery.lastError, 'private_address', delivery.url);
    assert.equal(receiver.received.length, 0, 'no request reached the receiver');
  });
});
