import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload, type CryptoKey } from 'jose';

// A real OpenID provider (panva's oidc-provider) on a loopback port, for the
// social login suites. The tests decide who logs in: per authorization
// request (by its state) or by a default, and the login and consent
// interactions then complete without a page. Tests can also sign tokens with
// the provider's own key (valid ones, and forged ones with wrong claims).

export interface IdpClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: 'client_secret_post' | 'client_secret_basic';
}

export type Decision = { sub: string } | 'deny';

export interface TestIdp {
  /** The issuer, which is also the discovery base (server_url). */
  issuer: string;
  /** Registers a client for the redirect flow (once its redirect URIs are known); again to add redirect URIs. */
  addClient(client: IdpClient): void;
  /** An account the provider knows, with its claims. */
  addAccount(sub: string, claims: Record<string, unknown>): void;
  /** Who logs in (or that the user declines) for the authorization request with this state. */
  decide(state: string, decision: Decision): void;
  /** For requests with no decision of their own (a browser test cannot see the state first). */
  defaultDecision: Decision | null;
  /** Signs `claims` as an ID token with the provider's key; `key`/`kid`/`alg` forge other signatures. */
  sign(claims: JWTPayload, options?: { key?: CryptoKey | Uint8Array; kid?: string; alg?: string }): Promise<string>;
  /** Authorization requests seen, by state: what a client sent (PKCE, scopes, ...). */
  requests: Map<string, URLSearchParams>;
  /** Token requests seen, most recent last: how the client authenticated and what it sent. */
  tokenRequests: Array<{ authorization: string | undefined; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

const CLAIMS = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['name', 'given_name', 'family_name', 'preferred_username'],
};

/** `host` lets a browser test give the provider a different site (localhost) from the app (127.0.0.1). */
export async function startIdp(options: { host?: string } = {}): Promise<TestIdp> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const accounts = new Map<string, Record<string, unknown>>();
  const decisions = new Map<string, Decision>();
  const requests = new Map<string, URLSearchParams>();
  const tokenRequests: TestIdp['tokenRequests'] = [];
  let provider: any = null;
  const clients: IdpClient[] = [];

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', idp.issuer);
    if (url.pathname === '/auth' && url.searchParams.has('state')) requests.set(url.searchParams.get('state')!, url.searchParams);
    if (url.pathname.startsWith('/interaction/')) return interact(req, res);
    provider.callback()(req, res);
  }
  async function interact(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    const decision = decisions.get(details.params.state) ?? idp.defaultDecision;
    if (!decision) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('the test made no decision for this login');
      return;
    }
    let result: Record<string, unknown>;
    if (decision === 'deny') {
      result = { error: 'access_denied', error_description: 'The user declined.' };
    } else if (details.prompt.name === 'login') {
      result = { login: { accountId: decision.sub } };
    } else {
      const grant = new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
      grant.addOIDCScope(String(details.params.scope));
      result = { consent: { grantId: await grant.save() } };
    }
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }

  /** (Re)builds the provider for the clients registered so far. */
  function serve(): void {
    provider = new Provider(idp.issuer, {
      clients: clients.map((c) => ({ grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_post', ...c })),
      jwks: { keys: [jwk] },
      claims: CLAIMS,
      // Every granted claim in the ID token too, so fetch_userinfo=false still sees the address.
      conformIdTokenClaims: false,
      findAccount: (_ctx: unknown, sub: string) => {
        const claims = accounts.get(sub);
        return claims && { accountId: sub, claims: async () => ({ sub, ...claims }) };
      },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      pkce: { required: () => false },
      cookies: { keys: ['test-idp-cookie-key'] },
    });
    provider.use(async (ctx: any, next: () => Promise<void>) => {
      await next();
      if (ctx.oidc?.route === 'token') tokenRequests.push({ authorization: ctx.headers.authorization, body: { ...ctx.oidc.body } });
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const idp: TestIdp = {
    issuer: `http://${options.host ?? '127.0.0.1'}:${port}`,
    defaultDecision: null,
    requests,
    tokenRequests,
    addClient(client) {
      // A second server (the other database) registers its redirect URI with the same client.
      const known = clients.find((c) => c.client_id === client.client_id);
      if (known) known.redirect_uris.push(...client.redirect_uris);
      else clients.push({ ...client, redirect_uris: [...client.redirect_uris] });
      serve();
    },
    addAccount(sub, claims) {
      accounts.set(sub, claims);
    },
    decide(state, decision) {
      decisions.set(state, decision);
    },
    async sign(claims, signOptions = {}) {
      const alg = signOptions.alg ?? 'RS256';
      return new SignJWT(claims).setProtectedHeader({ alg, kid: signOptions.kid ?? kid, typ: 'JWT' }).sign(signOptions.key ?? privateKey);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  serve();
  return idp;
}
