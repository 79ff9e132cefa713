import type { IdpSettings } from '../config/idp.js';
import { REGISTRATION_PATH } from './paths.js';

// What discovery announces beyond the provider's own features: back-channel
// logout (ours, messaging/backchannel-logout.ts, not the provider's feature;
// its logout tokens carry sid), an external userinfo endpoint, and the ways
// of becoming a client that are ours (the registration endpoint, client ID
// metadata documents), each only when on.

export function discoveryAdditions(settings: IdpSettings, issuer: string): Record<string, unknown> {
  const { registration, clientIdMetadataDocuments } = settings.dynamicClients;
  return {
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    ...(settings.userinfoEndpoint ? { userinfo_endpoint: settings.userinfoEndpoint } : {}),
    ...(registration !== 'off' ? { registration_endpoint: `${issuer}${REGISTRATION_PATH}` } : {}),
    ...(clientIdMetadataDocuments ? { client_id_metadata_document_supported: true } : {}),
  };
}
