import type { Endpoint } from '../../endpoint.js';
import { users } from './users.js';
import { profileFields } from './profile-fields.js';
import { emailAddresses } from './email-addresses.js';
import { phones } from './phones.js';
import { sessions } from './sessions.js';
import { authenticators } from './authenticators.js';
import { socialAccounts } from './social-accounts.js';
import { auditTrail } from './audit-trail.js';
import { auditStats } from './audit-stats.js';
import { webhooks } from './webhooks.js';
import { idpClients } from './idp-clients.js';
import { idpInitialAccessTokens } from './idp-initial-access-tokens.js';
import { apiKeys } from './api-keys.js';
import { settings } from './settings.js';

// Every admin resource, in the order of the admin API's OpenAPI document;
// each file declares the routes of one flows/admin module. Mounted behind
// API keys (/admin/v1) and behind the console's sign-in (/console/api/v1).
export const adminEndpoints: readonly Endpoint[] = [
  ...users,
  profileFields,
  ...emailAddresses,
  ...phones,
  ...sessions,
  ...authenticators,
  ...socialAccounts,
  ...auditTrail,
  auditStats,
  ...webhooks,
  ...idpClients,
  ...idpInitialAccessTokens,
  ...apiKeys,
  settings,
];
