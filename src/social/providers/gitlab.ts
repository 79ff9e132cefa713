import type { ProviderType } from '../provider-type.js';
import { stringOption } from '../app.js';
import { oauth2Provider } from '../kit/oauth2-provider.js';
import { bearerGet, bearerGetObject, isObject } from '../kit/api.js';
import { singleEmail, text, uidOf } from '../kit/claims.js';

// GitLab (gitlab.com, or a self-managed instance at gitlab_url): OAuth 2, the
// user from /api/v4/user. GitLab does not say whether that address is
// verified, so it counts as unverified (as in the reference).

export const gitlab: ProviderType = {
  id: 'gitlab',
  name: 'GitLab',
  flows: ['provider_redirect', 'provider_token'],
  options: { gitlab_url: { kind: 'url' } },
  create(context) {
    const base = stringOption(context.app, 'gitlab_url') ?? 'https://gitlab.com';
    return oauth2Provider(context, {
      issuer: base,
      authorizationEndpoint: `${base}/oauth/authorize`,
      tokenEndpoint: `${base}/oauth/token`,
      defaultScope: ['read_user'],
      async profile(config, accessToken) {
        const user = await bearerGetObject(config, accessToken, `${base}/api/v4/user`);
        return { uid: uidOf(user.id), extraData: user, emails: singleEmail(user.email, false), username: text(user.username), name: text(user.name) };
      },
      async tokenOwner(config, accessToken) {
        // Token introspection names the application a token belongs to.
        const info = await bearerGet(config, accessToken, `${base}/oauth/token/info`);
        if (info.status !== 200 || !isObject(info.body) || !isObject(info.body.application)) return null;
        if (info.body.application.uid !== context.app.clientId) return null;
        return uidOf(info.body.resource_owner_id);
      },
    });
  },
};
