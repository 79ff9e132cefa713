import type { KeyObject } from 'node:crypto';
import { jwtVerify, decodeProtectedHeader } from 'jose';
import { Ledger, pkceMatches, startStandin, type IssuedCode, type Standin } from './standin.js';

// A stand-in for Sign in with Apple on loopback (server_url points at it):
// discovery, keys, an authorization page that answers with a form post
// (response_mode=form_post) carrying the `user` JSON on the first login only,
// and a token endpoint that accepts only a client secret JWT signed with the
// app's key (ES256, kid, iss = team id, sub = client id, aud = Apple), whose
// ID token carries back the authorization request's nonce, as Apple's does.

export interface AppleAccount {
  sub: string;
  email: string;
  /** Apple sends the flag as a string. */
  emailVerified: 'true' | 'false';
  firstName: string;
  lastName: string;
}

export interface AppleStandin {
  url: string;
  standin: Standin;
  addAccount(account: AppleAccount): void;
  decide(state: string, sub: string | 'deny'): void;
  /** ID tokens as the app itself would get them from Apple, for the token flow. */
  idToken(sub: string, clientId: string): Promise<string>;
  close(): Promise<void>;
}

export async function startApple(app: { teamId: string; keyId: string; clientIds: string[]; publicKey: KeyObject }): Promise<AppleStandin> {
  const standin = await startStandin();
  const { routes } = standin;
  const accounts = new Map<string, AppleAccount>();
  const decisions = new Map<string, string>();
  const namesSent = new Set<string>();
  const codes = new Ledger<IssuedCode & { nonce: string | null }>();

  const idToken = (sub: string, clientId: string, nonce: string | null = null) => {
    const account = accounts.get(sub)!;
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: standin.url, aud: clientId, sub, email: account.email, email_verified: account.emailVerified, iat: now, exp: now + 600 };
    return standin.signIdToken(nonce === null ? claims : { ...claims, nonce });
  };

  routes.set('GET /.well-known/openid-configuration', () => ({
    json: {
      issuer: standin.url,
      authorization_endpoint: `${standin.url}/auth/authorize`,
      token_endpoint: `${standin.url}/auth/token`,
      jwks_uri: `${standin.url}/auth/keys`,
      response_modes_supported: ['query', 'fragment', 'form_post'],
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['client_secret_post'],
    },
  }));
  routes.set('GET /auth/keys', async () => ({ json: await standin.jwks() }));
  routes.set('GET /auth/authorize', ({ url }) => {
    const q = url.searchParams;
    const fields: Record<string, string> = { state: q.get('state') ?? '' };
    const sub = decisions.get(fields.state!);
    if (q.get('response_mode') !== 'form_post' || !app.clientIds.includes(q.get('client_id') ?? '') || !sub || sub === 'deny') {
      fields.error = 'user_cancelled_authorize';
    } else {
      fields.code = codes.issue({ clientId: q.get('client_id')!, redirectUri: q.get('redirect_uri')!, codeChallenge: q.get('code_challenge'), nonce: q.get('nonce'), user: sub });
      // The name comes once, on the first authorization of this app.
      if (!namesSent.has(sub)) {
        const account = accounts.get(sub)!;
        fields.user = JSON.stringify({ name: { firstName: account.firstName, lastName: account.lastName }, email: account.email });
        namesSent.add(sub);
      }
    }
    const inputs = Object.entries(fields)
      .map(([name, value]) => `<input type="hidden" name="${name}" value="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`)
      .join('');
    return { html: `<form method="post" action="${q.get('redirect_uri')}">${inputs}</form><script>document.forms[0].submit()</script>` };
  });
  routes.set('POST /auth/token', async ({ body }) => {
    const refused = { status: 400, json: { error: 'invalid_client' } };
    try {
      const { payload } = await jwtVerify(body.client_secret ?? '', app.publicKey, { algorithms: ['ES256'], issuer: app.teamId, audience: standin.url, subject: body.client_id });
      if (decodeProtectedHeader(body.client_secret!).kid !== app.keyId || !payload.exp) return refused;
    } catch {
      return refused;
    }
    const code = codes.redeem(body.code);
    if (!code || code.clientId !== body.client_id || code.redirectUri !== body.redirect_uri || !pkceMatches(code.codeChallenge, body.code_verifier)) {
      return { status: 400, json: { error: 'invalid_grant' } };
    }
    return { json: { access_token: 'apple-access', token_type: 'Bearer', expires_in: 3600, refresh_token: 'apple-refresh', id_token: await idToken(code.user, code.clientId, code.nonce) } };
  });

  return {
    url: standin.url,
    standin,
    addAccount: (account) => void accounts.set(account.sub, account),
    decide: (state, sub) => void decisions.set(state, sub),
    idToken,
    close: () => standin.close(),
  };
}

/** The form an authorization page posts: its action and fields (what the browser would submit). */
export function postedForm(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form in: ${html}`);
  const fields: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[name!] = value!.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  }
  return { action, fields };
}
