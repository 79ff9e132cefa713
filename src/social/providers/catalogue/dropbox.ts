import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Dropbox: the account from an RPC-style POST with no body.
export const dropbox = declareOAuth2Provider({
  id: 'dropbox',
  name: 'Dropbox',
  authorizeUrl: 'https://www.dropbox.com/oauth2/authorize',
  tokenUrl: 'https://api.dropbox.com/oauth2/token',
  profile: { url: 'https://api.dropbox.com/2/users/get_current_account', method: 'POST' },
  uid: 'account_id',
  email: 'email',
  fullName: 'name.display_name',
});
