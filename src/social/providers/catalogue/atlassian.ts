import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Atlassian (Jira, Confluence): the account from api.atlassian.com/me; the
// authorization request always names that API as its audience and asks for consent.
export const atlassian = declareOAuth2Provider({
  id: 'atlassian',
  name: 'Atlassian',
  authorizeUrl: 'https://auth.atlassian.com/authorize',
  tokenUrl: 'https://api.atlassian.com/oauth/token',
  authorizeParams: { audience: 'api.atlassian.com', prompt: 'consent' },
  scope: ['read:me'],
  profile: { url: 'https://api.atlassian.com/me' },
  uid: 'account_id',
  email: 'email',
  verified: 'email_verified',
  username: 'nickname',
  fullName: 'name',
});
