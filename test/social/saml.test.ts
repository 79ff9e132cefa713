import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { SignedXml } from 'xml-crypto';
import { createLogger } from '../../src/observability/logger.js';
import { loadConfig } from '../../src/config/config.js';
import { ConfigError } from '../../src/config/env.js';
import { parseSocialProviders } from '../../src/config/social-providers.js';
import { routeProvider } from '../../src/flows/admin/import-allauth/providers.js';
import { reportProviderApps } from '../../src/flows/admin/import-allauth/provider-apps.js';
import { databaseKinds } from '../support/databases.js';
import { startTestServer, TEST_SECRET, type TestServer } from '../support/server.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { keyFromMail, nthMail, readyClient } from '../support/accounts.js';
import { navigate, providersEnv, startRedirect } from '../support/social.js';
import { ApiClient } from '../support/client.js';
import { htmlForm, IDP_ENTITY_ID, makeKeyPair, simpleSamlSkipReason, startSimpleSaml, throughIdp, type SamlUser, type SimpleSamlIdp } from '../support/simplesamlphp.js';
import { enableTotp, pendingFlow, totpAt } from '../mfa/support.js';

// SAML 2.0 logins against Debian's SimpleSAMLphp as the identity provider
// (started once for the file): the SP-initiated redirect flow through the
// SPA's usual provider button, the login pipeline with a second factor,
// connecting, IdP-initiated logins (refused unless allowed, RelayState),
// metadata by URL, the SP's metadata. Then answers forged with a key of the
// test's own, one per check of the ACS, each refused onto the reference's
// login-error page, with the log naming the check that refused it.

const skip = simpleSamlSkipReason();
const idp: SimpleSamlIdp | null = skip ? null : await startSimpleSaml();
after(() => idp?.close());
const KINDS = await databaseKinds();

const keyDir = mkdtempSync(join(tmpdir(), 'saml-test-keys-'));
const forger = makeKeyPair(keyDir, 'forger');
const spKeys = makeKeyPair(keyDir, 'sp');
rmSync(keyDir, { recursive: true, force: true });

const FRONTEND = 'http://localhost:3000';
const CALLBACK_URL = `${FRONTEND}/account/provider/callback`;
const LOGIN_ERROR = `${FRONTEND}/account/provider/callback?error=unknown&error_process=login`;
const META_ID = 'https://idp.example.org/saml2/metadata';
const FORGER_ENTITY = 'urn:test:forger';
const FORGE_SP = 'urn:test:sp:forge';
const SLO_ID = 'urn:test:slo';
const POST_ID = 'urn:test:post';

/** SimpleSAMLphp's metadata as an IdP that offers only HTTP-POST for the AuthnRequest would publish it. */
async function postOnlyMetadata(idp: SimpleSamlIdp): Promise<Server> {
  const xml = (await (await fetch(idp.metadataUrl)).text()).replace(
    /(<md:SingleSignOnService Binding=")urn:oasis:names:tc:SAML:2\.0:bindings:HTTP-Redirect"/,
    '$1urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"',
  );
  assert.match(xml, /SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"/);
  assert.doesNotMatch(xml, /SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"/);
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(xml));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
const postMetadata = idp ? await postOnlyMetadata(idp) : null;
after(() => postMetadata?.close());
const postMetadataUrl = postMetadata ? `http://127.0.0.1:${(postMetadata.address() as { port: number }).port}/metadata.xml` : '';

function providers(idp: SimpleSamlIdp) {
  return {
    saml: {
      APPS: [
        {
          name: 'Acme Inc',
          provider_id: IDP_ENTITY_ID,
          client_id: 'acme',
          settings: {
            idp: { entity_id: IDP_ENTITY_ID, sso_url: idp.ssoUrl, slo_url: idp.sloUrl, x509cert: idp.keys.cert },
            sp: { entity_id: 'urn:test:sp:acme' },
            advanced: { want_assertion_signed: true },
            contact_person: { technical: { givenName: 'Tech Person', emailAddress: 'tech@acme.example' }, support: { givenName: 'Help Desk', emailAddress: 'help@acme.example' } },
            organization: { 'en-US': { name: 'acme', displayname: 'Acme Inc', url: 'https://acme.example' } },
            // The organization's IdP vouches for its addresses (SimpleSAMLphp sends no email_verified attribute).
            verified_email: true,
          },
        },
        {
          name: 'Metadata Org',
          provider_id: META_ID,
          client_id: 'meta',
          settings: {
            idp: { entity_id: IDP_ENTITY_ID, metadata_url: idp.metadataUrl },
            sp: { entity_id: 'urn:test:sp:meta' },
            attribute_mapping: { uid: 'urn:oid:0.9.2342.19200300.100.1.1', email: 'urn:oid:0.9.2342.19200300.100.1.3', first_name: 'urn:oid:2.5.4.42' },
            advanced: { reject_idp_initiated_sso: false },
          },
        },
        {
          name: 'Encrypted',
          provider_id: 'urn:test:crypt',
          client_id: 'crypt',
          settings: {
            idp: { entity_id: IDP_ENTITY_ID, sso_url: idp.ssoUrl, x509cert: idp.keys.cert },
            sp: { entity_id: 'urn:test:sp:crypt' },
            advanced: { want_assertion_encrypted: true, private_key: spKeys.key, x509cert: spKeys.cert, metadata_signed: true, authn_request_signed: true },
          },
        },
        {
          name: 'Single Logout',
          provider_id: SLO_ID,
          client_id: 'slo',
          settings: {
            idp: { entity_id: IDP_ENTITY_ID, sso_url: idp.ssoUrl, slo_url: idp.sloUrl, x509cert: idp.keys.cert },
            sp: { entity_id: 'urn:test:sp:slo' },
            advanced: { private_key: spKeys.key, x509cert: spKeys.cert, authn_request_signed: true, logout_request_signed: true },
          },
        },
        {
          name: 'Posted',
          provider_id: POST_ID,
          client_id: 'post',
          settings: {
            // The metadata offers the AuthnRequest only by HTTP-POST: that binding is then used.
            idp: { entity_id: IDP_ENTITY_ID, metadata_url: postMetadataUrl },
            sp: { entity_id: 'urn:test:sp:post' },
            advanced: { private_key: spKeys.key, x509cert: spKeys.cert, authn_request_signed: true },
          },
        },
        {
          name: 'Forged',
          provider_id: FORGER_ENTITY,
          client_id: 'forge',
          settings: {
            idp: { entity_id: FORGER_ENTITY, sso_url: 'http://127.0.0.1:9/sso', x509cert: forger.cert },
            sp: { entity_id: FORGE_SP },
            attribute_mapping: { email: 'email', email_verified: 'email_verified' },
            advanced: { want_assertion_signed: true, reject_idp_initiated_sso: false },
            email_authentication: true,
          },
        },
      ],
    },
  };
}

/** The log lines the server writes, parsed. */
function logSink(): { stream: Writable; lines: any[] } {
  const lines: any[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { stream, lines };
}

describe('SAML settings are checked at start', () => {
  const load = (settings: Record<string, unknown>, app: Record<string, unknown> = {}) => () =>
    loadConfig({ SECRET_KEY: TEST_SECRET, SOCIALACCOUNT_PROVIDERS: JSON.stringify({ saml: { APPS: [{ provider_id: 'urn:x', client_id: 'org', settings, ...app }] } }) });
  const idp = { entity_id: 'urn:idp', sso_url: 'https://idp.example/sso', x509cert: forger.cert };
  for (const [label, settings, app, message] of [
    ['no idp', {}, {}, /idp: required/],
    ['neither metadata_url nor sso_url and x509cert', { idp: { entity_id: 'urn:idp', sso_url: 'https://idp.example/sso' } }, {}, /give metadata_url, or sso_url and x509cert/],
    ['a certificate that is none', { idp: { ...idp, x509cert: 'MIIBnope' } }, {}, /idp\.x509cert: not a readable/],
    ['an unknown advanced switch', { idp, advanced: { want_everything: true } }, {}, /unknown setting "want_everything"/],
    ['strict off', { idp, advanced: { strict: false } }, {}, /strict: false is not supported/],
    ['encryption without a key', { idp, advanced: { want_assertion_encrypted: true } }, {}, /need private_key and x509cert/],
    ['SHA-1 while deprecated algorithms are refused', { idp, advanced: { signature_algorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' } }, {}, /SHA-1 is deprecated/],
    ['a slug that is no path segment', { idp }, { client_id: 'a/b' }, /client_id: the organization slug/],
    ['an http IdP off loopback', { idp: { ...idp, sso_url: 'http://idp.example/sso' } }, {}, /idp\.sso_url: expected an https URL/],
    ['a binding that is none', { idp: { ...idp, sso_binding: 'urn:oasis:names:tc:SAML:2.0:bindings:SOAP' } }, {}, /idp\.sso_binding: expected/],
    ['a contact of an unknown type', { idp, contact_person: { sales: { givenName: 'x' } } }, {}, /contact_person: unknown setting "sales"/],
    ['an organization without a URL', { idp, organization: { en: { name: 'Acme' } } }, {}, /organization\.en\.url: required/],
  ] as const) {
    it(`refuses ${label}`, () => assert.throws(load(settings, app), (error: Error) => error instanceof ConfigError && message.test(error.message)));
  }
  it('accepts a URL as provider id', () => assert.doesNotThrow(load({ idp }, { provider_id: 'https://idp.example/metadata?x=1' })));
});

describe('SAML apps and accounts from django-allauth', () => {
  // An app as allauth keeps it in socialaccount_socialapp, with its settings in the reference's shape.
  const source = {
    id: 7,
    provider: 'saml',
    providerId: 'https://idp.acme.example/metadata',
    name: 'Acme',
    clientId: 'acme',
    secret: '',
    key: '',
    settings: { idp: { entity_id: 'https://idp.acme.example/metadata', sso_url: 'https://idp.acme.example/sso', x509cert: forger.cert }, advanced: { want_assertion_signed: true } },
  };

  it('carries the accounts over under the app\'s provider id', () => {
    const route = routeProvider(source.providerId, [source], [], new Map());
    assert.deepEqual([route.target, route.type, route.skip], [source.providerId, 'saml', undefined]);
  });

  it('writes the setting for an app not configured here, which this server then loads', () => {
    const report = reportProviderApps([source], [], new Map(), false);
    assert.deepEqual(report.apps.map((a) => [a.type, a.id, a.supported, a.configuredHere]), [['saml', source.providerId, true, false]]);
    const apps = parseSocialProviders(JSON.stringify(report.settings), 'oidc');
    assert.deepEqual(apps.map((a) => [a.type, a.id, a.clientId]), [['saml', source.providerId, 'acme']]);
  });
});

for (const { kind, skip: dbSkip } of KINDS) {
  describeUnlessSkipped(`SAML 2.0 logins against SimpleSAMLphp [${kind}]`, skip ?? dbSkip, () => {
    let server: TestServer;
    const log = logSink();
    before(async () => {
      server = await startTestServer(kind, providersEnv(providers(idp!), { FRONTEND_URL: FRONTEND, ACCOUNT_EMAIL_VERIFICATION: 'optional' }), {
        logger: createLogger('warn', log.stream),
      });
      for (const org of ['acme', 'meta']) {
        idp!.registerSp({ entityId: `urn:test:sp:${org}`, acs: acs(org), sls: `${server.baseUrl}/accounts/saml/${org}/sls/` });
      }
      idp!.registerSp({ entityId: 'urn:test:sp:crypt', acs: acs('crypt'), sls: `${server.baseUrl}/accounts/saml/crypt/sls/`, encryptTo: spKeys.cert, requestsSignedWith: spKeys.cert });
      // SimpleSAMLphp checks the signatures of these SPs' AuthnRequests and LogoutRequests (validate.authnrequest, validate.logout).
      for (const org of ['slo', 'post']) {
        idp!.registerSp({ entityId: `urn:test:sp:${org}`, acs: acs(org), sls: `${server.baseUrl}/accounts/saml/${org}/sls/`, requestsSignedWith: spKeys.cert });
      }
    });
    after(() => server?.close());

    const acs = (org: string) => `${server.baseUrl}/accounts/saml/${org}/acs/`;
    let userIndex = 0;
    const nextUser = (): SamlUser => idp!.users[userIndex++]!;

    /** The IdP's cross-site post (no cookies sent; the one it sets is kept), then the same-site second leg. */
    async function deliver(browser: ApiClient, form: { action: string; fields: Record<string, string> }): Promise<string> {
      const posted = await fetch(form.action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form.fields).toString(),
        redirect: 'manual',
      });
      assert.equal(posted.status, 302);
      browser.absorbCookies(posted.headers);
      const finish = new URL(posted.headers.get('location')!, form.action).toString();
      if (!finish.includes('/acs/finish/')) return finish;
      const landed = await navigate(browser, finish);
      assert.equal(landed.status, 302);
      return landed.location!;
    }

    /** The SPA's provider button for `provider`, the IdP's login page for `user`, and back: where the browser lands. */
    async function spLogin(browser: ApiClient, provider: string, user: SamlUser, process = 'login'): Promise<string> {
      const start = await startRedirect(server, browser, { provider, callback_url: CALLBACK_URL, process });
      assert.equal(start.status, 302);
      assert.ok(start.location!.startsWith(idp!.ssoUrl), `expected the IdP, got ${start.location}`);
      const form = await throughIdp(start.location!, user);
      assert.equal(form.action, acs(({ [META_ID]: 'meta', 'urn:test:crypt': 'crypt', [SLO_ID]: 'slo' } as Record<string, string>)[provider] ?? 'acme'));
      return deliver(browser, form);
    }

    it('lists each organization under its provider id, a URN or a URL', async () => {
      const config = await (await readyClient(server, 'browser')).get('/config');
      const listed = config.body.data.socialaccount.providers.map((p: any) => [p.id, p.name, p.client_id, p.flows]);
      assert.deepEqual(listed, [
        ['urn:test:simplesamlphp-idp', 'Acme Inc', 'acme', ['provider_redirect']],
        ['urn:test:crypt', 'Encrypted', 'crypt', ['provider_redirect']],
        [FORGER_ENTITY, 'Forged', 'forge', ['provider_redirect']],
        [META_ID, 'Metadata Org', 'meta', ['provider_redirect']],
        [POST_ID, 'Posted', 'post', ['provider_redirect']],
        [SLO_ID, 'Single Logout', 'slo', ['provider_redirect']],
      ]);
    });

    it('logs a new user in by an SP-initiated login and maps the attributes', async () => {
      const user = nextUser();
      const browser = await readyClient(server, 'browser');
      assert.equal(await spLogin(browser, IDP_ENTITY_ID, user), CALLBACK_URL);
      const session = await browser.get('/auth/session');
      assert.equal(session.status, 200, JSON.stringify(session.body));
      assert.equal(session.body.data.user.email, user.email);
      assert.deepEqual(session.body.data.methods.map((m: any) => [m.method, m.provider, m.uid]), [['socialaccount', IDP_ENTITY_ID, user.uid]]);
      const accounts = await browser.get('/account/providers');
      assert.deepEqual(accounts.body.data.map((a: any) => [a.uid, a.provider.id, a.display]), [[user.uid, IDP_ENTITY_ID, user.email]]);

      // The same user again: the same account, not a second one.
      const again = await readyClient(server, 'browser');
      assert.equal(await spLogin(again, IDP_ENTITY_ID, user), CALLBACK_URL);
      assert.equal((await again.get('/auth/session')).body.data.user.id, session.body.data.user.id);
    });

    it('reads the IdP from its metadata URL and maps attributes as the app says', async () => {
      const user = nextUser();
      const browser = await readyClient(server, 'browser');
      assert.equal(await spLogin(browser, META_ID, user), CALLBACK_URL);
      const session = await browser.get('/auth/session');
      assert.equal(session.status, 200, JSON.stringify(session.body));
      assert.equal(session.body.data.user.email, user.email);
      assert.deepEqual(session.body.data.methods.map((m: any) => m.uid), [user.uid]);
    });

    it('continues into the login pipeline: a second factor after the IdP', async () => {
      const user = nextUser();
      const browser = await readyClient(server, 'browser');
      assert.equal(await spLogin(browser, IDP_ENTITY_ID, user), CALLBACK_URL);
      const secret = await enableTotp(server, browser);

      const later = await readyClient(server, 'browser');
      assert.equal(await spLogin(later, IDP_ENTITY_ID, user), CALLBACK_URL);
      const pending = await later.get('/auth/session');
      assert.equal(pending.status, 401);
      assert.equal(pendingFlow(pending.body)?.id, 'mfa_authenticate');
      const done = await later.post('/auth/2fa/authenticate', { code: totpAt(server, secret) });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.equal(done.body.data.user.email, user.email);
    });

    it('connects an IdP account to the logged-in user', async () => {
      const user = nextUser();
      const browser = await readyClient(server, 'browser');
      const signup = await browser.post('/auth/signup', { email: `local-${randomUUID().slice(0, 8)}@example.com`, password: 'a long secret phrase' });
      assert.equal(signup.status, 200, JSON.stringify(signup.body));
      assert.equal(await spLogin(browser, IDP_ENTITY_ID, user, 'connect'), CALLBACK_URL);
      const accounts = await browser.get('/account/providers');
      assert.deepEqual(accounts.body.data.map((a: any) => a.uid), [user.uid]);
    });

    it('refuses an IdP-initiated login by default, and accepts it where the app allows it', async () => {
      const refusedUser = nextUser();
      const refused = await readyClient(server, 'browser');
      const form = await throughIdp(idp!.idpInitiatedUrl('urn:test:sp:acme'), refusedUser);
      assert.equal(await deliver(refused, form), LOGIN_ERROR);
      assert.equal((await refused.get('/auth/session')).status, 401);
      assert.ok(log.lines.some((l) => l.saml === 'idp_initiated'));

      const user = nextUser();
      const browser = await readyClient(server, 'browser');
      const allowed = await throughIdp(idp!.idpInitiatedUrl('urn:test:sp:meta', `${FRONTEND}/welcome`), user);
      assert.equal(await deliver(browser, allowed), `${FRONTEND}/welcome`, 'a safe RelayState is where the browser lands');
      assert.equal((await browser.get('/auth/session')).body.data.user.email, user.email);
    });

    it('signs its AuthnRequests and opens assertions encrypted to its key, where the app says so', async () => {
      const user = nextUser();
      const browser = await readyClient(server, 'browser');
      const start = await startRedirect(server, browser, { provider: 'urn:test:crypt', callback_url: CALLBACK_URL });
      const query = new URL(start.location!).searchParams;
      assert.equal(query.get('SigAlg'), 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
      assert.ok(query.get('Signature'));
      // SimpleSAMLphp checks that signature (validate.authnrequest) and encrypts the assertion to our certificate.
      const form = await throughIdp(start.location!, user);
      const posted = Buffer.from(form.fields.SAMLResponse!, 'base64').toString();
      assert.ok(posted.includes('EncryptedAssertion') && !posted.includes(user.email), 'the assertion travels encrypted');
      assert.equal(await deliver(browser, form), CALLBACK_URL);
      assert.equal((await browser.get('/auth/session')).body.data.user.email, user.email);
      const out = await browser.delete('/auth/session');
      assert.equal(out.status, 401);
      assert.deepEqual(out.body.meta, { is_authenticated: false }, 'an IdP without an SLO URL: a local logout only');

      const metadata = await (await fetch(`${server.baseUrl}/accounts/saml/crypt/metadata/`)).text();
      const signature = new SignedXml({ publicCert: spKeys.cert });
      signature.loadSignature(/<(ds:)?Signature[\s\S]*<\/(ds:)?Signature>/.exec(metadata)![0]);
      assert.equal(signature.checkSignature(metadata), true, 'the metadata is signed with the SP key');
      assert.match(metadata, /<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"/, 'the binding the SLS takes, under the signature');
      assert.match(metadata, /KeyDescriptor use="encryption"/);
    });

    /** Follows a logout's redirects, each in the jar of its host, until the browser leaves both: the URLs visited and where it lands. */
    async function walk(from: string, browser: ApiClient, idpBrowser: ApiClient): Promise<{ visited: string[]; landed: string }> {
      const visited: string[] = [];
      let url = from;
      for (let hops = 0; hops < 10 && (url.startsWith(server.baseUrl) || url.startsWith(idp!.url)); hops++) {
        visited.push(url);
        const hop = await navigate(url.startsWith(server.baseUrl) ? browser : idpBrowser, url);
        assert.ok(hop.location, `no redirect from ${url} (${hop.status})`);
        url = hop.location;
      }
      return { visited, landed: url };
    }

    it('ends the session when the IdP logs the user out (single logout)', async () => {
      const user = nextUser();
      const browser = await readyClient(server, 'browser');
      const idpBrowser = new ApiClient(idp!.url, 'browser');
      const start = await startRedirect(server, browser, { provider: IDP_ENTITY_ID, callback_url: CALLBACK_URL });
      assert.equal(await deliver(browser, await throughIdp(start.location!, user, idpBrowser)), CALLBACK_URL);
      assert.equal((await browser.get('/auth/session')).status, 200);

      // Logging out at the IdP walks the browser through every SP's SLS: ours ends the session and answers the IdP.
      const goodbye = `${FRONTEND}/goodbye`;
      const { visited, landed } = await walk(`${idp!.url}/saml2/idp/SingleLogoutService.php?ReturnTo=${encodeURIComponent(goodbye)}`, browser, idpBrowser);
      assert.equal(landed, goodbye);
      assert.ok(visited.some((v) => v.startsWith(`${server.baseUrl}/accounts/saml/acme/sls/?SAMLRequest=`)));
      assert.equal((await browser.get('/auth/session')).status, 401, 'the session ended');
    });

    it('a logout through the API starts a signed single logout at the IdP, whose session ends too', async () => {
      const user = nextUser();
      const idpBrowser = new ApiClient(idp!.url, 'browser');
      const login = async (browser: ApiClient) => throughIdp((await startRedirect(server, browser, { provider: SLO_ID, callback_url: CALLBACK_URL })).location!, user, idpBrowser);
      const browser = await readyClient(server, 'browser');
      const first = await login(browser);
      assert.equal(first.askedCredentials, true);
      const assertion = Buffer.from(first.fields.SAMLResponse!, 'base64').toString();
      const sessionIndex = /SessionIndex="([^"]+)"/.exec(assertion)![1]!;
      assert.equal(await deliver(browser, first), CALLBACK_URL);
      assert.equal((await browser.get('/auth/session')).status, 200);
      // While the IdP's session lives, another login is answered without credentials: the check at the end means something.
      assert.equal((await login(await readyClient(server, 'browser'))).askedCredentials, false);

      const out = await browser.delete('/auth/session');
      assert.equal(out.status, 401);
      assert.equal(out.body.meta.is_authenticated, false);
      assert.ok(out.body.data.flows.length > 0);
      const logoutUrl: string = out.body.meta.logout_redirect_url;
      assert.ok(logoutUrl?.startsWith(`${idp!.sloUrl}?SAMLRequest=`), logoutUrl);
      const query = new URL(logoutUrl).searchParams;
      assert.equal(query.get('SigAlg'), 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
      const request = inflateRawSync(Buffer.from(query.get('SAMLRequest')!, 'base64')).toString();
      assert.match(request, new RegExp(`<saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${user.uid}</saml:NameID>`));
      assert.ok(request.includes(`>${sessionIndex}</`), 'the LogoutRequest names the login\'s SessionIndex');
      assert.equal((await browser.get('/auth/session')).status, 401, 'the local session ended at once');

      // The browser goes there: SimpleSAMLphp checks the signature, ends its session and answers at our SLS, which sends it to the frontend.
      const { visited, landed } = await walk(logoutUrl, browser, idpBrowser);
      assert.equal(landed, `${FRONTEND}/`);
      const answer = visited.find((v) => v.startsWith(`${server.baseUrl}/accounts/saml/slo/sls/?SAMLResponse=`));
      assert.ok(answer, visited.join('\n'));
      // The IdP's answer is taken once.
      const from = log.lines.length;
      assert.equal((await fetch(answer)).status, 400);
      assert.deepEqual(log.lines.slice(from).map((l) => l.saml).filter(Boolean), ['in_response_to']);

      // SimpleSAMLphp's session for the user ended: a new login asks for credentials again.
      const later = await readyClient(server, 'browser');
      const again = await login(later);
      assert.equal(again.askedCredentials, true);
      assert.equal(await deliver(later, again), CALLBACK_URL);
    });

    it('sends the AuthnRequest by HTTP-POST, signed, where the IdP\'s metadata offers only that binding', async () => {
      const user = nextUser();
      const browser = await readyClient(server, 'browser');
      const start = await startRedirect(server, browser, { provider: POST_ID, callback_url: CALLBACK_URL });
      assert.ok(start.location!.startsWith(`${server.baseUrl}/accounts/saml/post/sso/?state=`), start.location!);
      const page = await fetch(start.location!);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-security-policy')!, /script-src 'sha256-/);
      const form = htmlForm(await page.text(), start.location!);
      assert.equal(form.action, idp!.ssoUrl);
      const request = Buffer.from(form.fields.SAMLRequest!, 'base64').toString();
      assert.match(request, /^(<\?xml[^>]*>)?<samlp:AuthnRequest /, 'posted as XML, not deflated');
      assert.match(request, /<(ds:)?Signature/, 'signed inside the XML, as the POST binding carries it');
      // SimpleSAMLphp checks that signature (validate.authnrequest) before it answers.
      const answer = await throughIdp(form, user);
      assert.equal(await deliver(browser, answer), CALLBACK_URL);
      assert.equal((await browser.get('/auth/session')).body.data.user.email, user.email);

      assert.equal((await navigate(null, `${server.baseUrl}/accounts/saml/post/sso/?state=bad`)).location, LOGIN_ERROR);
      assert.equal((await navigate(null, `${server.baseUrl}/accounts/saml/acme/sso/?state=${'a'.repeat(32)}`)).location, LOGIN_ERROR, 'an app whose IdP takes the redirect binding');
    });

    it('refuses a logout message that does not verify', async () => {
      const browser = await readyClient(server, 'browser');
      const from = log.lines.length;
      const unsigned = await fetch(`${server.baseUrl}/accounts/saml/acme/sls/?SAMLRequest=${encodeURIComponent('fVLLbsIwEPyVyPfEjpOUYgFSKReqVEkFeqbGCqqJAyEk+u7ZOoiUiLy3AwzYsu0bHHr8G4GUTO4aWoNiysWc9Y0HCmtrKpQhNPa6lpWvdoWbHONGLrXzRkG+yOVm6emWrxcr12r69YIMQvC+Y3rjIBeGH4iUmn1ITJTiVg8zgx82yYZz+0FrI3TcNKlTjvHRJvAJzM+i5dOOFbDoVU58AW08F7C8Ou8v1H9XCkVsjG/GsVB9N6nDX4Y=')}&SigAlg=x&Signature=x`);
      assert.equal(unsigned.status, 400);
      assert.equal((await unsigned.json()).errors[0].code, 'invalid');
      assert.ok(log.lines.slice(from).some((l) => l.saml));
      void browser;
    });

    it('serves the SP metadata with the ACS and the SLS, and the login URL', async () => {
      const response = await fetch(`${server.baseUrl}/accounts/saml/acme/metadata/`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type')!, /^text\/xml/);
      // Compared without the indentation between elements.
      const xml = (await response.text()).replace(/>\s+</g, '><');
      assert.match(xml, /entityID="urn:test:sp:acme"/);
      assert.ok(xml.includes(`Location="${acs('acme')}"`));
      assert.ok(xml.includes(`<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${server.baseUrl}/accounts/saml/acme/sls/"/>`));
      assert.match(xml, /<Organization><OrganizationName xml:lang="en-US">acme<\/OrganizationName><OrganizationDisplayName xml:lang="en-US">Acme Inc<\/OrganizationDisplayName><OrganizationURL xml:lang="en-US">https:\/\/acme.example<\/OrganizationURL><\/Organization>/);
      assert.match(xml, /<ContactPerson contactType="technical"><GivenName>Tech Person<\/GivenName><EmailAddress>mailto:tech@acme.example<\/EmailAddress><\/ContactPerson>/);
      assert.match(xml, /<ContactPerson contactType="support">/);
      assert.equal((await fetch(`${server.baseUrl}/accounts/saml/nobody/metadata/`)).status, 404);
      // The reference's login URL (IdP portals' tiles) leads to the SPA's login page; it starts nothing by itself.
      assert.equal((await navigate(null, `${server.baseUrl}/accounts/saml/acme/login/`)).location, `${FRONTEND}/account/login`);
    });

    // Forged answers: signed by the test's own IdP key (the `forge` app trusts it), for a real flow of the browser.

    interface Forgery {
      inResponseTo?: string | null;
      email?: string;
      audience?: string;
      recipient?: string;
      destination?: string;
      issuer?: string;
      notBefore?: Date;
      notOnOrAfter?: Date;
      id?: string;
      sign?: boolean;
      /** The email_verified attribute's value (default "true"). */
      emailVerified?: string;
      /** Sign with RSA-SHA1 (deprecated). */
      sha1?: boolean;
      /** Rewrites the signed assertion's XML (wrapping, comments). */
      tamper?: (xml: string) => string;
    }

    const iso = (date: Date) => date.toISOString().replace(/\.\d+Z$/, 'Z');

    function forgedResponse(options: Forgery): string {
      const now = new Date();
      const id = options.id ?? `_a${randomUUID().replace(/-/g, '')}`;
      const inResponseTo = options.inResponseTo ? ` InResponseTo="${options.inResponseTo}"` : '';
      const email = options.email ?? `forged-${randomUUID().slice(0, 8)}@example.org`;
      const notBefore = iso(options.notBefore ?? new Date(now.getTime() - 30_000));
      const notOnOrAfter = iso(options.notOnOrAfter ?? new Date(now.getTime() + 300_000));
      const assertion =
        `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${iso(now)}">` +
        `<saml:Issuer>${options.issuer ?? FORGER_ENTITY}</saml:Issuer>` +
        `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${email}</saml:NameID>` +
        `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${options.recipient ?? acs('forge')}"${inResponseTo}/></saml:SubjectConfirmation></saml:Subject>` +
        `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${options.audience ?? FORGE_SP}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
        `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_s${randomUUID().slice(0, 8)}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
        `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${email}</saml:AttributeValue></saml:Attribute>` +
        `<saml:Attribute Name="email_verified"><saml:AttributeValue>${options.emailVerified ?? 'true'}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
        `</saml:Assertion>`;
      let signed = assertion;
      if (options.sign !== false) {
        const signer = new SignedXml({
          privateKey: forger.key,
          canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
          signatureAlgorithm: options.sha1 ? 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' : 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
        });
        signer.addReference({
          xpath: "//*[local-name(.)='Assertion']",
          transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
          digestAlgorithm: options.sha1 ? 'http://www.w3.org/2000/09/xmldsig#sha1' : 'http://www.w3.org/2001/04/xmlenc#sha256',
        });
        signer.computeSignature(assertion, { location: { reference: "//*[local-name(.)='Issuer']", action: 'after' } });
        signed = signer.getSignedXml();
      }
      if (options.tamper) signed = options.tamper(signed);
      const response =
        `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID().replace(/-/g, '')}" Version="2.0" IssueInstant="${iso(now)}" Destination="${options.destination ?? acs('forge')}"${inResponseTo}>` +
        `<saml:Issuer>${options.issuer ?? FORGER_ENTITY}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
        signed +
        `</samlp:Response>`;
      return Buffer.from(response).toString('base64');
    }

    /** A redirect flow of `browser` at the forged IdP: the AuthnRequest's ID, which the answer names. */
    async function forgeFlow(browser: ApiClient): Promise<string> {
      const start = await startRedirect(server, browser, { provider: FORGER_ENTITY, callback_url: CALLBACK_URL });
      const request = inflateRawSync(Buffer.from(new URL(start.location!).searchParams.get('SAMLRequest')!, 'base64')).toString();
      assert.ok(request.includes(`AssertionConsumerServiceURL="${acs('forge')}"`));
      return /ID="([^"]+)"/.exec(request)![1]!;
    }

    async function postForged(browser: ApiClient, samlResponse: string): Promise<string> {
      return deliver(browser, { action: acs('forge'), fields: { SAMLResponse: samlResponse } });
    }

    async function assertRefused(forgery: (requestId: string) => Forgery, code: string): Promise<void> {
      const browser = await readyClient(server, 'browser');
      const requestId = await forgeFlow(browser);
      const from = log.lines.length;
      assert.equal(await postForged(browser, forgedResponse(forgery(requestId))), LOGIN_ERROR);
      assert.equal((await browser.get('/auth/session')).status, 401, 'nobody is logged in');
      const codes = log.lines.slice(from).map((l) => l.saml).filter(Boolean);
      assert.deepEqual(codes, [code], JSON.stringify(log.lines.slice(from)));
    }

    it('accepts a well-formed forged answer (so the refusals below refuse for their reason)', async () => {
      const browser = await readyClient(server, 'browser');
      const requestId = await forgeFlow(browser);
      const email = `forged-${randomUUID().slice(0, 8)}@example.org`;
      assert.equal(await postForged(browser, forgedResponse({ inResponseTo: requestId, email })), CALLBACK_URL);
      assert.equal((await browser.get('/auth/session')).body.data.user.email, email);
    });

    it('matches an existing account by email only when the IdP marks the address verified (email_authentication)', async () => {
      const owner = await readyClient(server, 'browser');
      const email = `owner-${randomUUID().slice(0, 8)}@example.org`;
      assert.equal((await owner.post('/auth/signup', { email, password: 'a long secret phrase' })).status, 200);
      const key = keyFromMail(await nthMail(server.mail, email, 1));
      assert.equal((await owner.post('/auth/email/verify', { key })).status, 200);
      const ownerId = (await owner.get('/auth/session')).body.data.user.id;

      const unverified = await readyClient(server, 'browser');
      assert.equal(await postForged(unverified, forgedResponse({ inResponseTo: await forgeFlow(unverified), email, emailVerified: 'false' })), CALLBACK_URL);
      const pending = await unverified.get('/auth/session');
      assert.notEqual(pending.body.data?.user?.id, ownerId, 'an address the IdP does not vouch for opens no one\'s account');

      const verified = await readyClient(server, 'browser');
      assert.equal(await postForged(verified, forgedResponse({ inResponseTo: await forgeFlow(verified), email })), CALLBACK_URL);
      assert.equal((await verified.get('/auth/session')).body.data.user.id, ownerId);
    });

    it('refuses an unsigned assertion where signing is required', () => assertRefused((id) => ({ inResponseTo: id, sign: false }), 'signature'));
    it('refuses an expired assertion', () =>
      assertRefused((id) => ({ inResponseTo: id, notBefore: new Date(Date.now() - 3600_000), notOnOrAfter: new Date(Date.now() - 600_000) }), 'expired'));
    it('refuses a SHA-1 signature', () => assertRefused((id) => ({ inResponseTo: id, sha1: true }), 'deprecated_algorithm'));
    it('refuses an assertion for another audience', () => assertRefused((id) => ({ inResponseTo: id, audience: 'urn:someone:else' }), 'audience'));
    it('refuses an answer for another ACS (Recipient)', () => assertRefused((id) => ({ inResponseTo: id, recipient: 'https://elsewhere.example/acs/' }), 'recipient'));
    it('refuses an answer sent to another destination', () => assertRefused((id) => ({ inResponseTo: id, destination: 'https://elsewhere.example/acs/' }), 'destination'));
    it('refuses an assertion from another issuer, even signed by a trusted key', () => assertRefused((id) => ({ inResponseTo: id, issuer: 'urn:other:idp' }), 'issuer'));
    it('refuses an answer to a request this browser did not make', () => assertRefused(() => ({ inResponseTo: '_not-a-flow-of-this-browser' }), 'in_response_to'));
    it('refuses a comment injected into a signed value', () =>
      assertRefused((id) => ({ inResponseTo: id, email: 'victim@example.org', tamper: (xml) => xml.replace(/victim@example\.org/g, 'victim@example.org<!---->.evil.example') }), 'comment'));
    it('refuses a wrapped signature (a forged assertion around the signed one)', () =>
      assertRefused(
        (id) => ({
          inResponseTo: id,
          email: 'someone@example.org',
          tamper: (xml) => {
            const evil = xml.replace(/someone@example\.org/g, 'admin@example.org').replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '');
            // The signed original hides in the forged one's Advice, where a careless verifier finds its signature valid.
            return evil.replace('<saml:Subject>', `<saml:Advice>${xml}</saml:Advice><saml:Subject>`);
          },
        }),
        'signature',
      ));

    it('refuses a replayed assertion, even in a new flow', async () => {
      const browser = await readyClient(server, 'browser');
      const id = `_a${randomUUID().replace(/-/g, '')}`;
      const first = forgedResponse({ inResponseTo: await forgeFlow(browser), id });
      assert.equal(await postForged(browser, first), CALLBACK_URL);
      const other = await readyClient(server, 'browser');
      const from = log.lines.length;
      // The same assertion id again, for a live flow of another browser.
      assert.equal(await postForged(other, forgedResponse({ inResponseTo: await forgeFlow(other), id })), LOGIN_ERROR);
      assert.deepEqual(log.lines.slice(from).map((l) => l.saml).filter(Boolean), ['replayed']);
      assert.equal((await other.get('/auth/session')).status, 401);
    });

    it('sends a garbage post to the login-error page, never a 500', async () => {
      const browser = await readyClient(server, 'browser');
      assert.equal(await postForged(browser, 'bm90IHhtbA=='), LOGIN_ERROR);
      assert.equal(await postForged(browser, '%%%'), LOGIN_ERROR);
      const noCookie = await navigate(null, `${acs('forge')}finish/`);
      assert.equal(noCookie.location, LOGIN_ERROR);
    });
  });
}
