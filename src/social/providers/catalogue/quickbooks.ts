import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const quickbooks = declareOAuth2Provider({
  id: 'quickbooks',
  name: 'QuickBooks',
  settings: { sandbox: { kind: 'boolean', default: false }, profile_fields: { kind: 'json' } },
  authorizeUrl: 'https://appcenter.intuit.com/connect/oauth2',
  tokenUrl: 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer',
  scope: (_s, queryEmail) => ['openid', 'com.intuit.quickbooks.accounting', 'profile', 'phone', ...(queryEmail ? ['email'] : [])],
  // The company the user picked comes back in the callback's query.
  profile: async ({ api, settings, params }) => {
    const host = settings.sandbox === true ? 'sandbox-accounts.platform.intuit.com' : 'accounts.platform.intuit.com';
    const userinfo = await api.object(`https://${host}/v1/openid_connect/userinfo`);
    // Only when Intuit sent one, as the reference: no null realmId in extra_data.
    const realmId = params.get('realmId');
    return realmId ? { ...userinfo, realmId } : userinfo;
  },
  uid: 'sub',
  email: 'email',
});
