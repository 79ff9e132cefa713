// The console's screens: the hash path each answers (#/<path>, a `:name`
// segment stands for a value the screen receives in `params`) and, for those
// in the menu, the catalogue key of its label. The first menu entry is home.
import { Dashboard } from './screens/dashboard.js';
import { Audit } from './screens/audit.js';
import { Users } from './screens/users.js';
import { UserPage } from './screens/user.js';
import { UserCreate } from './screens/user-create.js';
import { Webhooks } from './screens/webhooks.js';
import { ApiKeys } from './screens/api-keys.js';
import { Settings } from './screens/settings.js';
import { Clients } from './screens/clients.js';
import { ClientCreate } from './screens/client-create.js';
import { ClientPage } from './screens/client.js';
import { RegistrationTokens } from './screens/registration-tokens.js';

export const routes = [
  { path: 'dashboard', nav: 'dashboard.nav', screen: Dashboard },
  { path: 'users', nav: 'nav.users', screen: Users },
  { path: 'users/new', screen: UserCreate },
  { path: 'users/:id', screen: UserPage },
  { path: 'audit', nav: 'audit.nav', screen: Audit },
  { path: 'webhooks', nav: 'webhooks.nav', screen: Webhooks },
  { path: 'api-keys', nav: 'keys.nav', screen: ApiKeys },
  { path: 'clients', nav: 'clients.nav', screen: Clients },
  { path: 'clients/new', screen: ClientCreate },
  { path: 'clients/registration-tokens', screen: RegistrationTokens },
  { path: 'clients/:id', screen: ClientPage },
  { path: 'settings', nav: 'settings.nav', screen: Settings },
];
