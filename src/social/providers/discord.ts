import { declareOAuth2Provider, ownedAccessToken } from '../kit/declared-provider.js';
import { isObject } from '../kit/api.js';
import { isTrue, text, uidOf } from '../kit/claims.js';
import { accountDisplay } from '../kit/display.js';

// Discord: OAuth 2, the user from /users/@me. Its address counts only when
// Discord marks it verified (as in the reference). The token flow (ours)
// takes an access token once the current authorization names this app.

/** The reference's display: the global name under Discord's new usernames, name#1234 under the old ones. */
function display(extraData: Record<string, unknown>, fallback: string): string {
  const username = text(extraData.username);
  const discriminator = extraData.discriminator;
  if (typeof discriminator === 'string' && /^\d{4}$/.test(discriminator) && discriminator !== '0000') return `${username}#${discriminator}`;
  return text(extraData.global_name) ?? username ?? accountDisplay(extraData, fallback);
}

export const discord = declareOAuth2Provider({
  id: 'discord',
  name: 'Discord',
  // PKCE on, as for this server's first provider types (Discord accepts it).
  pkce: true,
  settings: { api_url: { kind: 'url', default: 'https://discord.com/api' } },
  authorizeUrl: (s) => `${s.api_url as string}/oauth2/authorize`,
  tokenUrl: (s) => `${s.api_url as string}/oauth2/token`,
  scope: ['email', 'identify'],
  profile: { url: (s) => `${s.api_url as string}/users/@me` },
  uid: 'id',
  emails: (user) => {
    const email = text(user.email);
    return email && isTrue(user.verified) ? [{ email, verified: true, primary: true }] : [];
  },
  username: 'username',
  fullName: (user) => text(user.global_name) ?? text(user.username),
  display,
  tokenFlow: ownedAccessToken(async (api, { context, settings }) => {
    // The current authorization names the application it was granted to.
    const info = await api.answer(`${settings.api_url as string}/oauth2/@me`);
    if (info.status !== 200 || !isObject(info.body) || !isObject(info.body.application) || !isObject(info.body.user)) return null;
    return info.body.application.id === context.app.clientId ? uidOf(info.body.user.id) : null;
  }),
});
