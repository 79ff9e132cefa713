import { BINDINGS, type IdpSettings, type SsoBinding } from './settings.js';
import { ProviderError } from '../provider-type.js';
import { cachedFor } from '../kit/cached.js';
import { children, descendants, NS, parseXml, textOf } from './xml.js';

// The IdP as the app names it: inline (sso_url, slo_url, x509cert), or read
// from its metadata URL, fetched at first use and kept for
// metadata_cache_timeout (the reference's four hours), with the entity
// descriptor chosen by entity_id. The AuthnRequest goes by the binding the
// app names (idp.sso_binding), else by HTTP-Redirect where the IdP offers it
// and HTTP-POST where it offers only that; logout messages go by redirect.

export interface IdpEndpoints {
  ssoUrl: string;
  ssoBinding: SsoBinding;
  sloUrl: string | null;
  /** Base64 DER signing certificates. */
  certs: string[];
}

function fromMetadata(xml: string, entityId: string, wanted: SsoBinding | null): IdpEndpoints {
  const doc = parseXml(xml);
  if (!doc) throw new ProviderError('IdP metadata: not well-formed XML');
  const entity = descendants(doc, NS.metadata, 'EntityDescriptor').find((e) => e.getAttribute('entityID') === entityId);
  if (!entity) throw new ProviderError(`IdP metadata: no EntityDescriptor for ${entityId}`);
  const idp = children(entity, NS.metadata, 'IDPSSODescriptor')[0];
  if (!idp) throw new ProviderError('IdP metadata: no IDPSSODescriptor');
  const service = (name: string, binding: SsoBinding) =>
    children(idp, NS.metadata, name).find((e) => e.getAttribute('Binding') === BINDINGS[binding])?.getAttribute('Location') || null;
  const ssoBinding = wanted ?? (service('SingleSignOnService', 'redirect') ? 'redirect' : 'post');
  const ssoUrl = service('SingleSignOnService', ssoBinding);
  if (!ssoUrl) throw new ProviderError(`IdP metadata: no SingleSignOnService with the ${BINDINGS[wanted ?? 'redirect']} binding${wanted ? '' : ' or HTTP-POST'}`);
  const certs = children(idp, NS.metadata, 'KeyDescriptor')
    .filter((key) => (key.getAttribute('use') || 'signing') === 'signing')
    .flatMap((key) => descendants(key, NS.dsig, 'X509Certificate').map((c) => (textOf(c) ?? '').replace(/\s+/g, '')))
    .filter(Boolean);
  if (certs.length === 0) throw new ProviderError('IdP metadata: no signing certificate');
  return { ssoUrl, ssoBinding, sloUrl: service('SingleLogoutService', 'redirect'), certs };
}

/** The IdP's endpoints and certificates; settings given inline win over the metadata's. */
export function idpEndpoints(idp: IdpSettings): () => Promise<IdpEndpoints> {
  if (!idp.metadataUrl) {
    const inline = { ssoUrl: idp.ssoUrl!, ssoBinding: idp.ssoBinding ?? ('redirect' as const), sloUrl: idp.sloUrl, certs: idp.certs };
    return async () => inline;
  }
  const metadataUrl = idp.metadataUrl;
  return cachedFor(idp.metadataCacheMs, async () => {
    let response: Response;
    try {
      response = await fetch(metadataUrl, { redirect: 'manual', signal: AbortSignal.timeout(idp.metadataRequestTimeoutMs) });
    } catch (error) {
      throw new ProviderError(`IdP metadata: GET ${metadataUrl} failed: ${(error as Error).message}`, { cause: error });
    }
    if (response.status !== 200) throw new ProviderError(`IdP metadata: GET ${metadataUrl} answered ${response.status}`);
    const read = fromMetadata(await response.text(), idp.entityId, idp.ssoBinding);
    return { ssoUrl: idp.ssoUrl ?? read.ssoUrl, ssoBinding: idp.ssoUrl ? (idp.ssoBinding ?? 'redirect') : read.ssoBinding, sloUrl: idp.sloUrl ?? read.sloUrl, certs: idp.certs.length ? idp.certs : read.certs };
  });
}
