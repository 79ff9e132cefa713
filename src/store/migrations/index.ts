import type { Migration } from 'kysely';
import * as m001 from './001_initial.js';
import * as m002 from './002_account_management.js';
import * as m003 from './003_refresh_tokens.js';
import * as m004 from './004_phone_numbers.js';
import * as m006 from './006_mfa.js';
import * as m007 from './007_social.js';
import * as m008 from './008_session_keys.js';
import * as m009 from './009_import_records.js';
import * as m010 from './010_audit.js';
import * as m011 from './011_social_state_nonce.js';
import * as m012 from './012_idp_oidc.js';
import * as m013 from './013_admin.js';
import * as m015 from './015_idp_resource_servers.js';
import * as m016 from './016_idp_client_keys.js';
import * as m017 from './017_idp_registration.js';
import * as m018 from './018_idp_par.js';
import * as m019 from './019_idp_partial_indexes.js';
import * as m020 from './020_user_profile.js';
import * as m021 from './021_user_language.js';
import * as m022 from './022_saml.js';
import * as m023 from './023_social_state_secret.js';
import * as m024 from './024_saml_logout.js';
import * as m025 from './025_admin_setup_links.js';
import * as m026 from './026_audit_type_time.js';
import * as m027 from './027_user_list_orders.js';

// Listed in code rather than read from a folder, so migrations work the same
// under tsx, a bundler or compiled output. Append; never edit a shipped one.
export const migrations: Record<string, Migration> = {
  '001_initial': m001,
  '002_account_management': m002,
  '003_refresh_tokens': m003,
  '004_phone_numbers': m004,
  '006_mfa': m006,
  '007_social': m007,
  '008_session_keys': m008,
  '009_import_records': m009,
  '010_audit': m010,
  '011_social_state_nonce': m011,
  '012_idp_oidc': m012,
  '013_admin': m013,
  '015_idp_resource_servers': m015,
  '016_idp_client_keys': m016,
  '017_idp_registration': m017,
  '018_idp_par': m018,
  '019_idp_partial_indexes': m019,
  '020_user_profile': m020,
  '021_user_language': m021,
  '022_saml': m022,
  '023_social_state_secret': m023,
  '024_saml_logout': m024,
  '025_admin_setup_links': m025,
  '026_audit_type_time': m026,
  '027_user_list_orders': m027,
};
