import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { tokenAnswer, tokenRequest } from '../../kit/code-exchange.js';
import { pickObject } from '../../kit/fields.js';

// Untappd: its own names (redirect_url), a GET exchange whose token sits
// under `response`, and a USER_AGENT; the reference trusts its address.
export const untappd = declareOAuth2Provider({
  id: 'untappd',
  name: 'Untappd',
  settings: { user_agent: { kind: 'string', default: 'django-allauth' } },
  authorizeUrl: 'https://untappd.com/oauth/authenticate/',
  tokenUrl: 'https://untappd.com/oauth/authorize/',
  // Untappd reads the callback from redirect_url, not redirect_uri.
  authorizeParams: (_settings, redirectUri) => ({ redirect_url: redirectUri }),
  async exchange(context, settings, input) {
    const { app } = context;
    const raw = await tokenRequest(context, 'https://untappd.com/oauth/authorize/', { method: 'GET', headers: { 'user-agent': settings.user_agent as string } }, {
      client_id: app.clientId,
      client_secret: app.secret,
      code: input.code,
      grant_type: 'authorization_code',
      response_type: 'code',
      redirect_url: input.redirectUri,
    });
    return tokenAnswer(context, pickObject(raw, 'response'));
  },
  profile: { url: 'https://api.untappd.com/v4/user/info/', token: { query: 'access_token' } },
  uid: 'response.user.uid',
  email: 'response.user.settings.email_address',
  verified: true,
  username: 'response.user.user_name',
  fullName: (data) => {
    const user = pickObject(data, 'response.user');
    return [user.first_name, user.last_name].filter(Boolean).join(' ');
  },
});
