import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Basecamp (37signals Launchpad): `type=web_server` on both legs; the identity inside the authorization.
export const basecamp = declareOAuth2Provider({
  id: 'basecamp',
  name: 'Basecamp',
  authorizeUrl: 'https://launchpad.37signals.com/authorization/new',
  tokenUrl: 'https://launchpad.37signals.com/authorization/token?type=web_server',
  authorizeParams: { type: 'web_server' },
  profile: { url: 'https://launchpad.37signals.com/authorization.json' },
  uid: 'identity.id',
  email: 'identity.email_address',
  username: 'identity.email_address',
  firstName: 'identity.first_name',
  lastName: 'identity.last_name',
  fullName: (data) => [(data.identity as Record<string, unknown> | undefined)?.first_name, (data.identity as Record<string, unknown> | undefined)?.last_name].filter(Boolean).join(' '),
});
