import { bearer, oauthEndpoints, startStandin, type Standin } from './standin.js';

// A stand-in for GitHub on loopback (GITHUB_URL points at it): the OAuth app
// endpoints, /user, /user/emails with verified flags, and the check of a
// token against an app's credentials. Its quirks are GitHub's: a refused
// code is a 200 with an `error` field, the API answers /api/v3 under GITHUB_URL.

export interface GitHubUser {
  id: number;
  login: string;
  name: string | null;
  /** The public address of the profile. */
  email: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

export interface GitHubStandin {
  url: string;
  standin: Standin;
  addClient(clientId: string, secret: string): void;
  addUser(user: GitHubUser): void;
  /** Who approves the authorization request with this state (or 'deny'). */
  decide(state: string, login: string | 'deny'): void;
  /** A token as another app (or this one) would have obtained it for `login`. */
  issueToken(login: string, clientId: string): string;
  close(): Promise<void>;
}

export async function startGitHub(): Promise<GitHubStandin> {
  const standin = await startStandin();
  const clients = new Map<string, string>();
  const users = new Map<string, GitHubUser>();
  const oauth = oauthEndpoints(standin, {
    authorizePath: '/login/oauth/authorize',
    tokenPath: '/login/oauth/access_token',
    clients,
    // GitHub answers a bad code with 200 and an error field.
    refuse: { json: { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' } },
  });
  const { routes } = standin;
  const userOf = (token: string | undefined) => users.get(oauth.tokens.get(token)?.user ?? '');

  routes.set('GET /api/v3/user', (request) => {
    const user = userOf(bearer(request));
    if (!user) return { status: 401, json: { message: 'Bad credentials' } };
    const { emails: _emails, ...profile } = user;
    return { json: { ...profile, html_url: `https://github.example/${user.login}` } };
  });
  routes.set('GET /api/v3/user/emails', (request) => {
    const user = userOf(bearer(request));
    return user ? { json: user.emails.map((e) => ({ ...e, visibility: 'private' })) } : { status: 401, json: { message: 'Bad credentials' } };
  });

  return {
    url: standin.url,
    standin,
    addClient(clientId, secret) {
      clients.set(clientId, secret);
      // "Check a token": only with the app's own credentials, and only for its own tokens.
      routes.set(`POST /api/v3/applications/${clientId}/token`, ({ headers, body }) => {
        const expected = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
        if (headers.authorization !== expected) return { status: 401, json: { message: 'Requires authentication' } };
        const token = oauth.tokens.get(body.access_token);
        const user = token && token.clientId === clientId ? users.get(token.user) : undefined;
        return user ? { json: { token: body.access_token, user: { login: user.login, id: user.id } } } : { status: 404, json: { message: 'Not Found' } };
      });
    },
    addUser: (user) => void users.set(user.login, user),
    decide: oauth.decide,
    issueToken: oauth.issueToken,
    close: () => standin.close(),
  };
}
