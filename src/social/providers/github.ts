import type { ProviderEmail } from '../provider-type.js';
import { declareOAuth2Provider, ownedAccessToken, type Settings } from '../kit/declared-provider.js';
import { isObject, request } from '../kit/api.js';
import { isTrue, text, uidOf } from '../kit/claims.js';

// GitHub: OAuth 2 without an ID token. The user comes from its API; the
// addresses, with GitHub's own verified flags, from /user/emails (scope
// user:email), kept apart from extra_data as the reference does. GITHUB_URL
// points at a GitHub Enterprise server.

const HEADERS = { accept: 'application/vnd.github+json' };
const web = (s: Settings) => (s.github_url as string | undefined) ?? 'https://github.com';
const api = (s: Settings) => (s.github_url ? `${s.github_url as string}/api/v3` : 'https://api.github.com');

/** The /user answer, with the /user/emails list under a key of its own that is not stored. */
const EMAILS = Symbol('emails');
type WithEmails = Record<string, unknown> & { [EMAILS]?: ProviderEmail[] };

export const github = declareOAuth2Provider({
  id: 'github',
  name: 'GitHub',
  // PKCE on, as for this server's first provider types (GitHub accepts it).
  pkce: true,
  settings: { github_url: { kind: 'url' } },
  authorizeUrl: (s) => `${web(s)}/login/oauth/authorize`,
  tokenUrl: (s) => `${web(s)}/login/oauth/access_token`,
  scope: (_s, queryEmail) => (queryEmail ? ['user:email'] : []),
  profile: async ({ api: call, settings, context }) => {
    const profile: WithEmails = await call.object(`${api(settings)}/user`, { headers: HEADERS });
    if (context.queryEmail) {
      const answer = await call.answer(`${api(settings)}/user/emails`, { headers: HEADERS });
      // 404 is documented to occur (no address access): no addresses, not an error.
      const list = answer.status === 200 && Array.isArray(answer.body) ? answer.body.filter(isObject) : [];
      profile[EMAILS] = list.filter((e) => typeof e.email === 'string').map((e) => ({ email: e.email as string, verified: isTrue(e.verified), primary: isTrue(e.primary) }));
    }
    return profile;
  },
  uid: 'id',
  emails: (profile) => {
    const emails = (profile as WithEmails)[EMAILS] ?? [];
    const publicEmail = text(profile.email);
    // The public address counts as verified only if /user/emails says so.
    return publicEmail && !emails.some((e) => e.email.toLowerCase() === publicEmail.toLowerCase()) ? [{ email: publicEmail, verified: false, primary: true }, ...emails] : emails;
  },
  username: 'login',
  fullName: 'name',
  storedData: (profile) => {
    const { [EMAILS]: _emails, ...stored } = profile as WithEmails;
    return stored;
  },
  tokenFlow: ownedAccessToken(async (_api, { context, settings, accessToken }) => {
    const { app } = context;
    // GitHub's check of a token against the app's own credentials: 200 with the user only for this app's tokens.
    const answer = await request(
      context.endpoint(`${api(settings)}/applications/${encodeURIComponent(app.clientId)}/token`),
      {
        method: 'POST',
        headers: { ...HEADERS, 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${app.clientId}:${app.secret}`).toString('base64')}` },
        body: JSON.stringify({ access_token: accessToken }),
      },
      context.timeoutSeconds,
    );
    if (answer.status !== 200 || !isObject(answer.body) || !isObject(answer.body.user)) return null;
    return uidOf(answer.body.user.id);
  }),
});
