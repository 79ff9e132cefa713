import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const zoho = declareOAuth2Provider({
  id: 'zoho',
  name: 'Zoho',
  authorizeUrl: 'https://accounts.zoho.com/oauth/v2/auth',
  tokenUrl: 'https://accounts.zoho.com/oauth/v2/token',
  scope: ['aaaserver.profile.READ'],
  profile: { url: 'https://accounts.zoho.com/oauth/user/info' },
  uid: 'ZUID',
  email: 'Email',
  username: 'Display_Name',
  firstName: 'First_Name',
  lastName: 'Last_Name',
});
