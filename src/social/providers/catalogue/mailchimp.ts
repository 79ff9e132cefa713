import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Mailchimp: the login's metadata (data centre, account) with the `OAuth`
// scheme; an empty scope is sent, as the reference does.
export const mailchimp = declareOAuth2Provider({
  id: 'mailchimp',
  name: 'MailChimp',
  authorizeUrl: 'https://login.mailchimp.com/oauth2/authorize',
  tokenUrl: 'https://login.mailchimp.com/oauth2/token',
  scope: [''],
  profile: { url: 'https://login.mailchimp.com/oauth2/metadata', token: { scheme: 'OAuth' } },
  // The reference takes no address or name from it.
  uid: 'user_id',
});
