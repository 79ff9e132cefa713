import type { SocialApp } from '../../app.js';
import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Salesforce: the instance is the app's `key` (its login or My Domain URL,
// as in the reference; login.salesforce.com when empty), the user from
// userinfo with the token as `oauth_token`.
const instance = (app: SocialApp) => `${(app.key || 'https://login.salesforce.com').replace(/\/+$/, '')}/services/oauth2`;

export const salesforce = declareOAuth2Provider({
  id: 'salesforce',
  name: 'Salesforce',
  authorizeUrl: (_s, app) => `${instance(app)}/authorize`,
  tokenUrl: (_s, app) => `${instance(app)}/token`,
  scope: ['id', 'openid'],
  profile: { url: (_s, app) => `${instance(app)}/userinfo`, token: { query: 'oauth_token' } },
  uid: 'user_id',
  email: 'email',
  verified: 'email_verified',
  username: 'preferred_username',
  fullName: 'name',
  firstName: 'given_name',
  lastName: 'family_name',
  validate: (app) => (!app.key || /^https:\/\/[^/]+/.test(app.key) || /^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(app.key) ? null : 'key: expected the instance URL (e.g. https://login.salesforce.com)'),
});
