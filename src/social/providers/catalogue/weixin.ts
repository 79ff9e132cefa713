import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { tokenAnswer, tokenRequest } from '../../kit/code-exchange.js';

// WeChat (Weixin) login: its own names (appid, secret), no redirect_uri in
// the exchange; the user from sns/userinfo with the openid the token answer names.
export const weixin = declareOAuth2Provider({
  id: 'weixin',
  name: 'Weixin',
  settings: { authorize_url: { kind: 'url', default: 'https://open.weixin.qq.com/connect/qrconnect' } },
  authorizeUrl: (s) => s.authorize_url as string,
  tokenUrl: 'https://api.weixin.qq.com/sns/oauth2/access_token',
  clientIdParam: 'appid',
  scope: ['snsapi_login'],
  async exchange(context, _settings, input) {
    const { app } = context;
    return tokenAnswer(context, await tokenRequest(context, 'https://api.weixin.qq.com/sns/oauth2/access_token', {}, { appid: app.clientId, secret: app.secret, code: input.code, grant_type: 'authorization_code' }));
  },
  profile: ({ api, token }) => api.object('https://api.weixin.qq.com/sns/userinfo', { token: { query: 'access_token' }, query: { openid: String(token.raw.openid ?? '') } }),
  uid: 'openid',
  username: 'nickname',
  fullName: 'nickname',
});
