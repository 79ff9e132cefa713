import { singleEmail, text, uidOf } from '../kit/claims.js';
import { accountDisplay } from '../kit/display.js';
import { isObject } from '../kit/api.js';
import { ProviderError } from '../provider-type.js';
import { oauth1Type } from '../kit/oauth1/oauth1-provider.js';

// X (Twitter) over OAuth 1.0a, the reference's `twitter`: the user is the
// answer of account/verify_credentials (with the address when
// SOCIALACCOUNT_QUERY_EMAIL asks for it, never counted as verified).

export const twitter = oauth1Type('twitter', 'X', (context) => ({
  requestTokenUrl: 'https://api.x.com/oauth/request_token',
  // authenticate, not authorize: a user who already approved the app is not asked again.
  authorizeUrl: 'https://api.x.com/oauth/authenticate',
  accessTokenUrl: 'https://api.x.com/oauth/access_token',
  async profile(api) {
    const url = 'https://api.x.com/1.1/account/verify_credentials.json';
    const user = await api.signedGet(context.queryEmail ? `${url}?include_email=true` : url);
    if (!isObject(user)) throw new ProviderError('verify_credentials: not an object');
    return {
      // X's ids pass 2^53: id_str is the same id as text, which the reference's str(id) gives.
      uid: uidOf(text(user.id_str) ?? user.id),
      extraData: user,
      emails: singleEmail(user.email, false),
      username: text(user.screen_name),
      name: text(user.name),
    };
  },
  display: (extraData) => text(extraData.screen_name) ?? accountDisplay(extraData, context.app.name),
}));
