import type * as oidc from 'openid-client';
import type { Identity, ProviderEmail, ProviderType } from '../provider-type.js';
import { stringOption } from '../app.js';
import { oauth2Provider } from '../kit/oauth2-provider.js';
import { bearerGet, bearerGetObject, isObject, request } from '../kit/api.js';
import { isTrue, text, uidOf } from '../kit/claims.js';

// GitHub: OAuth 2 without an ID token. The user comes from its API; the
// addresses, with GitHub's own verified flags, from /user/emails (scope
// user:email). GITHUB_URL points at a GitHub Enterprise server.

/** The user as the reference keeps it: the /user answer (addresses apart). */
function identityOf(profile: Record<string, unknown>, emails: ProviderEmail[]): Identity {
  const publicEmail = text(profile.email);
  // The public address counts as verified only if /user/emails says so.
  const all = publicEmail && !emails.some((e) => e.email.toLowerCase() === publicEmail.toLowerCase()) ? [{ email: publicEmail, verified: false, primary: true }, ...emails] : emails;
  return { uid: uidOf(profile.id), extraData: profile, emails: all, username: text(profile.login), name: text(profile.name) };
}

export const github: ProviderType = {
  id: 'github',
  name: 'GitHub',
  flows: ['provider_redirect', 'provider_token'],
  options: { github_url: { kind: 'url' } },
  create(context) {
    const { app } = context;
    const enterprise = stringOption(app, 'github_url');
    const web = enterprise ?? 'https://github.com';
    const api = enterprise ? `${enterprise}/api/v3` : 'https://api.github.com';
    const headers = { accept: 'application/vnd.github+json' };

    async function emails(config: oidc.Configuration, accessToken: string): Promise<ProviderEmail[]> {
      if (!context.queryEmail) return [];
      const answer = await bearerGet(config, accessToken, `${api}/user/emails`, headers);
      // 404 is documented to occur (no address access): no addresses, not an error.
      if (answer.status !== 200 || !Array.isArray(answer.body)) return [];
      return answer.body
        .filter(isObject)
        .filter((e) => typeof e.email === 'string')
        .map((e) => ({ email: e.email as string, verified: isTrue(e.verified), primary: isTrue(e.primary) }));
    }

    return oauth2Provider(context, {
      issuer: web,
      authorizationEndpoint: `${web}/login/oauth/authorize`,
      tokenEndpoint: `${web}/login/oauth/access_token`,
      defaultScope: context.queryEmail ? ['user:email'] : [],
      async profile(config, accessToken) {
        const profile = await bearerGetObject(config, accessToken, `${api}/user`, headers);
        return identityOf(profile, await emails(config, accessToken));
      },
      async tokenOwner(_config, accessToken) {
        // GitHub's check of a token against the app's own credentials: 200 with the user only for this app's tokens.
        const answer = await request(
          `${api}/applications/${encodeURIComponent(app.clientId)}/token`,
          {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${app.clientId}:${app.secret}`).toString('base64')}` },
            body: JSON.stringify({ access_token: accessToken }),
          },
          context.timeoutSeconds,
        );
        if (answer.status !== 200 || !isObject(answer.body) || !isObject(answer.body.user)) return null;
        return uidOf(answer.body.user.id);
      },
    });
  },
};
