import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { tokenAnswer } from '../../kit/code-exchange.js';
import { providerApi } from '../../kit/provider-api.js';

// DingTalk: the callback names the code `authCode`; the exchange is a JSON
// post in DingTalk's camelCase (clientId, clientSecret, grantType) whose
// answer says accessToken / refreshToken / expireIn; the user comes from
// contact/users/me with the token in DingTalk's own header.
const TOKEN_URL = 'https://api.dingtalk.com/v1.0/oauth2/userAccessToken';

export const dingtalk = declareOAuth2Provider({
  id: 'dingtalk',
  name: 'DingTalk',
  authorizeUrl: 'https://login.dingtalk.com/oauth2/auth',
  tokenUrl: TOKEN_URL,
  scope: ['openid', 'corpid'],
  codeParam: 'authCode',
  async exchange(context, _settings, input) {
    const json: Record<string, string> = { clientId: context.app.clientId, clientSecret: context.app.secret, code: input.code, grantType: 'authorization_code' };
    if (input.codeVerifier) json.code_verifier = input.codeVerifier;
    const raw = await providerApi(context, '').object(TOKEN_URL, { method: 'POST', json, token: 'none' });
    return tokenAnswer(context, raw, { access: 'accessToken', refresh: 'refreshToken', expiresIn: 'expireIn' });
  },
  profile: { url: 'https://api.dingtalk.com/v1.0/contact/users/me', token: { header: 'x-acs-dingtalk-access-token' } },
  uid: 'openId',
  username: 'nick',
  fullName: 'nick',
});
