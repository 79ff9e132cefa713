import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// MODE: `live` for paypal.com; anything else, and no MODE at all, is the
// sandbox, as the reference has it.
export const paypal = declareOAuth2Provider({
  id: 'paypal',
  name: 'Paypal',
  settings: { mode: { kind: 'string', default: 'sandbox' } },
  authorizeUrl: (s) => `https://www.${s.mode === 'live' ? 'paypal.com' : 'sandbox.paypal.com'}/webapps/auth/protocol/openidconnect/v1/authorize`,
  tokenUrl: (s) => `https://api.${s.mode === 'live' ? 'paypal.com' : 'sandbox.paypal.com'}/v1/identity/openidconnect/tokenservice`,
  scope: ['openid', 'email'],
  profile: {
    url: (s) => `https://api.${s.mode === 'live' ? 'paypal.com' : 'sandbox.paypal.com'}/v1/identity/openidconnect/userinfo`,
    method: 'POST',
    token: { query: 'access_token' },
    query: { schema: 'openid' },
  },
  uid: 'user_id',
  email: 'email',
  firstName: 'given_name',
  lastName: 'family_name',
});
