import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { IDP_ENV, codeFlow, loggedInBrowser, navigate } from './support.js';
import { clientIdUrl, documentClient, internalAddress } from '../../src/idp/client-id-metadata.js';

// Client ID Metadata Documents: a URL as client_id, its JSON document
// served by a small HTTP server here (on 127.0.0.1, which the suite allows
// with IDP_OIDC_CLIENT_ID_METADATA_DOCUMENT_PRIVATE_HOSTS), an
// authorization code flow with PKCE by openid-client with that client_id,
// the cache and its max-age, the documents refused, and the refusal of
// internal addresses when they are not allowed.

const REDIRECT = 'https://mcp-client.test/callback';

interface DocumentServer {
  base: string;
  /** Requests per path. */
  hits: Map<string, number>;
  connections: number;
  /** What each path answers: a document (with its client_id filled in), or a status and raw body. */
  routes: Map<string, { doc?: Record<string, unknown>; status?: number; raw?: string; headers?: Record<string, string> }>;
  close(): Promise<void>;
}

async function documentServer(): Promise<DocumentServer> {
  const state = { hits: new Map<string, number>(), connections: 0, routes: new Map() } as DocumentServer;
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    state.hits.set(path, (state.hits.get(path) ?? 0) + 1);
    const route = state.routes.get(path);
    if (!route) return response.writeHead(404).end();
    const body = route.raw ?? JSON.stringify({ client_id: `${state.base}${path}`, ...route.doc });
    response.writeHead(route.status ?? 200, { 'content-type': 'application/json', ...route.headers }).end(body);
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}

const relyingParty = (server: TestServer, clientId: string) => oidc.discovery(new URL(server.baseUrl), clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });

/** Where an authorization request with this client_id stops: the provider's error page, or the consent page. */
async function authorizePage(server: TestServer, clientId: string) {
  const rp = await relyingParty(server, clientId);
  const { api } = await loggedInBrowser(server);
  const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: REDIRECT, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()), code_challenge_method: 'S256' });
  return (await navigate(server, api, url)).page!;
}

const ENV = { ...IDP_ENV, IDP_OIDC_CLIENT_ID_METADATA_DOCUMENTS: 'true', IDP_OIDC_CLIENT_ID_METADATA_DOCUMENT_PRIVATE_HOSTS: 'true' };

describeEachDatabase('OpenID provider: client ID metadata documents', ENV, ({ server }) => {
  let docs: DocumentServer;
  before(async () => {
    docs = await documentServer();
  });
  after(() => docs.close());

  it('is announced in discovery', async () => {
    const doc = await (await fetch(`${server().baseUrl}/.well-known/openid-configuration`)).json();
    assert.equal(doc.client_id_metadata_document_supported, true);
  });

  it('logs a user in to a client known only by its document URL, fetched once', async () => {
    docs.routes.set('/flow.json', { doc: { client_name: 'MCP client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }, headers: { 'cache-control': 'max-age=3600' } });
    const clientId = `${docs.base}/flow.json`;
    const rp = await relyingParty(server(), clientId);
    const { api, email } = await loggedInBrowser(server());
    const { tokens } = await codeFlow(server(), rp, api, { redirect_uri: REDIRECT });
    assert.equal(tokens.claims()!.aud, clientId);
    assert.equal(tokens.claims()!.email, email);
    assert.equal(docs.hits.get('/flow.json'), 1, 'the document is cached for the whole flow');
    // The consent page names the host the document is published on beside the name it chose.
    const page = await authorizePage(server(), clientId);
    assert.equal(page.status, 200);
    assert.ok(page.html.includes(`MCP client (${new URL(docs.base).host})`), page.html.slice(0, 400));
  });

  it('keeps a document for its max-age (at least a minute), then fetches it again', async () => {
    docs.routes.set('/cached.json', { doc: { redirect_uris: ['https://old.test/cb'] }, headers: { 'cache-control': 'max-age=5' } });
    const clientId = `${docs.base}/cached.json`;
    assert.equal((await authorizePage(server(), clientId)).status, 400, 'the redirect URI is not the document\'s');
    docs.routes.set('/cached.json', { doc: { redirect_uris: [REDIRECT] }, headers: { 'cache-control': 'max-age=5' } });
    server().clock.advance(30_000);
    assert.equal((await authorizePage(server(), clientId)).status, 400, 'still the cached document: max-age is raised to a minute');
    assert.equal(docs.hits.get('/cached.json'), 1);
    server().clock.advance(31_000);
    assert.equal((await authorizePage(server(), clientId)).status, 200, 'the new document allows the redirect URI');
    assert.equal(docs.hits.get('/cached.json'), 2);
  });

  it('refuses documents that do not describe a public client at their own URL', async () => {
    const big = JSON.stringify({ client_id: `${docs.base}/big.json`, redirect_uris: [REDIRECT], padding: 'x'.repeat(6000) });
    const refused: [string, Parameters<DocumentServer['routes']['set']>[1]][] = [
      ['/other-id.json', { raw: JSON.stringify({ client_id: 'https://elsewhere.test/client.json', redirect_uris: [REDIRECT] }) }],
      ['/secret.json', { doc: { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' } }],
      ['/with-secret.json', { doc: { redirect_uris: [REDIRECT], client_secret: 'x' } }],
      ['/wildcard.json', { doc: { redirect_uris: ['https://*.mcp-client.test/callback'] } }],
      ['/big.json', { raw: big }],
      ['/not-json.json', { raw: '<html>' }],
      ['/gone.json', { status: 404, doc: { redirect_uris: [REDIRECT] } }],
    ];
    for (const [path, route] of refused) {
      docs.routes.set(path, route);
      const page = await authorizePage(server(), `${docs.base}${path}`);
      assert.equal(page.status, 400, path);
      assert.match(page.html, /client is invalid|invalid_client/, path);
    }
    // A client_id that is no document URL is not fetched at all.
    const before = docs.connections;
    for (const id of [`${docs.base}/`, `${docs.base}/a/../flow.json`, `${docs.base}/flow.json#x`, `http://user:pw@127.0.0.1:${new URL(docs.base).port}/flow.json`]) {
      assert.equal((await authorizePage(server(), id)).status, 400, id);
    }
    assert.equal(docs.connections, before);
  });
});

describeEachDatabase('OpenID provider: client ID metadata documents, internal addresses refused', { ...IDP_ENV, IDP_OIDC_CLIENT_ID_METADATA_DOCUMENTS: 'true' }, ({ server }) => {
  let docs: DocumentServer;
  before(async () => {
    docs = await documentServer();
  });
  after(() => docs.close());

  it('never connects to a loopback address, by name or number, nor over http', async () => {
    docs.routes.set('/client.json', { doc: { redirect_uris: [REDIRECT] } });
    const port = new URL(docs.base).port;
    for (const id of [`https://127.0.0.1:${port}/client.json`, `https://localhost:${port}/client.json`, `https://[::ffff:127.0.0.1]:${port}/client.json`, `${docs.base}/client.json`]) {
      const page = await authorizePage(server(), id);
      assert.equal(page.status, 400, id);
    }
    assert.equal(docs.connections, 0);
  });
});

describeEachDatabase('OpenID provider: client ID metadata documents off', IDP_ENV, ({ server }) => {
  it('is not announced, and a URL client_id is an unknown client', async () => {
    const doc = await (await fetch(`${server().baseUrl}/.well-known/openid-configuration`)).json();
    assert.equal(doc.client_id_metadata_document_supported, undefined);
    const docs = await documentServer();
    try {
      docs.routes.set('/client.json', { doc: { redirect_uris: [REDIRECT] } });
      assert.equal((await authorizePage(server(), `${docs.base}/client.json`)).status, 400);
      assert.equal(docs.connections, 0);
    } finally {
      await docs.close();
    }
  });
});

describe('client ID metadata document guards', () => {
  it('tells internal addresses from public ones', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1']) assert.equal(internalAddress(address), true, address);
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) assert.equal(internalAddress(address), false, address);
  });

  it('names why a document is refused', () => {
    const id = 'https://app.example/client.json';
    const url = new URL(id);
    const reason = (doc: unknown) => documentClient(id, url, doc, ['openid'], 0);
    assert.equal(typeof reason({ client_id: id, redirect_uris: [REDIRECT] }), 'object');
    assert.match(String(reason({ client_id: 'https://other.example/c.json', redirect_uris: [REDIRECT] })), /client_id is not its URL/);
    assert.match(String(reason({ client_id: id, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' })), /not supported for documents/);
    assert.match(String(reason({ client_id: id, redirect_uris: [REDIRECT], client_secret: 'x' })), /client secret/);
    assert.match(String(reason({ client_id: id, redirect_uris: ['https://*.app.example/cb'] })), /wildcard/);
    assert.match(String(reason([])), /not a JSON object/);
  });

  it('takes only https URLs with a path and no fragment, credentials or dot segments', () => {
    assert.ok(clientIdUrl('https://app.example/client.json', false));
    for (const id of ['http://app.example/client.json', 'https://app.example', 'https://app.example/', 'https://app.example/a#b', 'https://u:p@app.example/c', 'https://app.example/a/./c', 'https://app.example/%2e%2e/c', 'client-id']) {
      assert.equal(clientIdUrl(id, false), null, id);
    }
  });
});
