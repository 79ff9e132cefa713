import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { IDP_ENV } from './support.js';
import { loadConfig } from '../../src/config/config.js';

// The metadata documents OAuth clients (MCP's among them) look for besides
// OpenID discovery: the authorization server's (RFC 8414), the same as
// discovery's, and the protected resources' behind us (RFC 9728,
// IDP_OIDC_PROTECTED_RESOURCES), each naming us as its authorization server.

const RESOURCES = [
  { resource: 'https://api.example.test/', resource_name: 'Example API', scopes_supported: ['orders.read'] },
  { resource: 'https://api.example.test/mcp', scopes_supported: ['mcp:tools'], bearer_methods_supported: ['header'] },
  { resource: 'https://a.test/v1' },
  { resource: 'https://b.test/v1', resource_documentation: 'https://b.test/docs' },
];

/** A GET with the Host header given (fetch cannot set it). */
function get(server: TestServer, path: string, host?: string): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const url = new URL(path, server.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: host ? { host } : {} }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end();
  });
}

describeEachDatabase('OpenID provider: authorization server and protected resource metadata', { ...IDP_ENV, IDP_OIDC_PROTECTED_RESOURCES: JSON.stringify(RESOURCES) }, ({ server }) => {
  it('serves the authorization server metadata (RFC 8414) as the discovery document', async () => {
    const oauth = await get(server(), '/.well-known/oauth-authorization-server');
    const openid = await get(server(), '/.well-known/openid-configuration');
    assert.equal(oauth.status, 200);
    assert.equal(oauth.body.issuer, server().baseUrl);
    assert.deepEqual(oauth.body, openid.body);
  });

  it('serves each resource\'s metadata at its path, naming the issuer as its authorization server', async () => {
    const root = await get(server(), '/.well-known/oauth-protected-resource');
    assert.equal(root.status, 200);
    assert.deepEqual(root.body, { resource: 'https://api.example.test/', resource_name: 'Example API', scopes_supported: ['orders.read'], bearer_methods_supported: ['header'], authorization_servers: [server().baseUrl] });
    assert.equal(root.headers['access-control-allow-origin'], '*');

    const mcp = await get(server(), '/.well-known/oauth-protected-resource/mcp');
    assert.equal(mcp.body.resource, 'https://api.example.test/mcp');
    assert.deepEqual(mcp.body.scopes_supported, ['mcp:tools']);
    assert.deepEqual(mcp.body.authorization_servers, [server().baseUrl]);

    // Two resources on one path: the host asked picks one (and the issuer is that host's).
    const b = await get(server(), '/.well-known/oauth-protected-resource/v1', 'b.test');
    assert.equal(b.body.resource, 'https://b.test/v1');
    assert.equal(b.body.resource_documentation, 'https://b.test/docs');
    assert.deepEqual(b.body.authorization_servers, ['http://b.test']);
    assert.equal((await get(server(), '/.well-known/oauth-protected-resource/v1', 'a.test')).body.resource, 'https://a.test/v1');

    const unknown = await get(server(), '/.well-known/oauth-protected-resource/nothing-here');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, 'not_found');
  });
});

describeEachDatabase('OpenID provider: no protected resources', IDP_ENV, ({ server }) => {
  it('serves no protected resource metadata, and the authorization server metadata still', async () => {
    assert.equal((await get(server(), '/.well-known/oauth-protected-resource')).status, 404);
    assert.equal((await get(server(), '/.well-known/oauth-authorization-server')).status, 200);
  });
});

describe('IDP_OIDC_PROTECTED_RESOURCES', () => {
  it('refuses what is not a list of resources', () => {
    for (const value of ['{}', '[{"resource": "not a url"}]', '[{"resource": "https://x.test/", "color": "red"}]', '[{"resource": "https://x.test/", "scopes_supported": "a b"}]', '[{"resource": "https://x.test/#f"}]', 'nope']) {
      assert.throws(() => loadConfig({ ...IDP_ENV, IDP_OIDC_PROTECTED_RESOURCES: value }), /IDP_OIDC_PROTECTED_RESOURCES/, value);
    }
  });
});
