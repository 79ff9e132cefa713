import type { IdpSettings } from '../config/idp.js';
import { REGISTRATION_PATH } from './paths.js';

// What discovery announces beyond the provider's own features: an external
// userinfo endpoint, and the ways of becoming a client that are ours (the
// registration endpoint, client ID metadata documents), each only when on.

export function discoveryAdditions(settings: IdpSettings, issuer: string): Record<string, unknown> {
  const { registration, clientIdMetadataDocuments } = settings.dynamicClients;
  return {
    ...(settings.userinfoEndpoint ? { userinfo_endpoint: settings.userinfoEndpoint } : {}),
    ...(registration !== 'off' ? { registration_endpoint: `${issuer}${REGISTRATION_PATH}` } : {}),
    ...(clientIdMetadataDocuments ? { client_id_metadata_document_supported: true } : {}),
  };
}
