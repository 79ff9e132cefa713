import type { ProviderType } from '../provider-type.js';
import { stringOption } from '../app.js';
import { oauth2Provider } from '../kit/oauth2-provider.js';
import { bearerGet, bearerGetObject, isObject } from '../kit/api.js';
import { isTrue, text, uidOf } from '../kit/claims.js';
import { accountDisplay } from '../kit/display.js';

// Discord: OAuth 2, the user from /users/@me. Its address counts only when
// Discord marks it verified (as in the reference).

/** The reference's display: the global name under Discord's new usernames, name#1234 under the old ones. */
function display(extraData: Record<string, unknown>, fallback: string): string {
  const username = text(extraData.username);
  const discriminator = extraData.discriminator;
  if (typeof discriminator === 'string' && /^\d{4}$/.test(discriminator) && discriminator !== '0000') return `${username}#${discriminator}`;
  return text(extraData.global_name) ?? username ?? accountDisplay(extraData, fallback);
}

export const discord: ProviderType = {
  id: 'discord',
  name: 'Discord',
  flows: ['provider_redirect', 'provider_token'],
  options: { api_url: { kind: 'url' } },
  create(context) {
    const api = stringOption(context.app, 'api_url') ?? 'https://discord.com/api';
    return oauth2Provider(context, {
      issuer: api,
      authorizationEndpoint: `${api}/oauth2/authorize`,
      tokenEndpoint: `${api}/oauth2/token`,
      defaultScope: ['email', 'identify'],
      async profile(config, accessToken) {
        const user = await bearerGetObject(config, accessToken, `${api}/users/@me`);
        const email = text(user.email);
        return {
          uid: uidOf(user.id),
          extraData: user,
          emails: email && isTrue(user.verified) ? [{ email, verified: true, primary: true }] : [],
          username: text(user.username),
          name: text(user.global_name) ?? text(user.username),
        };
      },
      async tokenOwner(config, accessToken) {
        // The current authorization names the application it was granted to.
        const info = await bearerGet(config, accessToken, `${api}/oauth2/@me`);
        if (info.status !== 200 || !isObject(info.body) || !isObject(info.body.application) || !isObject(info.body.user)) return null;
        return info.body.application.id === context.app.clientId ? uidOf(info.body.user.id) : null;
      },
      display: (extraData) => display(extraData, context.app.name),
    });
  },
};
