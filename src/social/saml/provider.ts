import type { Provider, ProviderType } from '../provider-type.js';
import { ProviderError } from '../provider-type.js';
import { accountDisplay } from '../kit/display.js';
import { signXmlMetadata } from '@node-saml/node-saml/lib/utility.js';
import { BINDINGS, samlSettings, SamlSettingsError, type SamlSettings } from './settings.js';
import { idpEndpoints } from './idp-metadata.js';
import { samlClient, verifyResponse, type Assertion } from './response.js';
import { samlIdentity } from './identity.js';
import { logoutMessage, type LogoutMessage } from './logout.js';

// SAML 2.0 as a provider type, the reference's `saml`: one app per
// organization, its client_id the organization slug in the URLs
// (/accounts/saml/<slug>/acs/, /acs/finish/, /sls/, /metadata/), its
// provider_id best the IdP's entity id. The redirect flow sends the browser
// to the IdP with an AuthnRequest whose ID is the flow's state, so that the
// answer's InResponseTo finds the browser's flow again; the answer arrives
// at the ACS, not at a callback, and goes through `saml.verify`. An IdP
// that takes the AuthnRequest by HTTP-POST gets it from a page of ours
// (sso/), whose form the browser submits to the IdP.

/** This app's SP endpoints, for the origin the browser reached. */
export interface SpEndpoints {
  entityId: string;
  acsUrl: string;
  slsUrl: string;
  metadataUrl: string;
  /** Where the redirect flow sends the browser when the AuthnRequest is posted. */
  ssoPostUrl: string;
}

/** Who the IdP logged in, as the LogoutRequest names them. */
export interface SamlSubject {
  nameId: string;
  nameIdFormat: string | null;
  sessionIndex: string | null;
}

/** A form for the browser to post to the IdP. */
export interface PostForm {
  action: string;
  fields: Record<string, string>;
}

export interface SamlOperations {
  readonly settings: SamlSettings;
  endpoints(origin: string): SpEndpoints;
  /** The verified assertion of a posted SAMLResponse (throws SamlRefused, or ProviderError when the IdP's metadata cannot be read). */
  verify(samlResponse: string, origin: string, now: number): Promise<Assertion>;
  /** A single logout message at the SLS (the query as parsed, and as sent, whose bytes the signature covers). */
  logout(query: Record<string, string>, rawQuery: string, origin: string): Promise<LogoutMessage>;
  /** The AuthnRequest of a flow by HTTP-POST, or null when the IdP takes it by redirect. */
  authnRequestForm(state: string, origin: string): Promise<PostForm | null>;
  /** The IdP's SLO URL with our LogoutRequest (signed when the app signs them), or null when the IdP has no SLO URL. */
  logoutRequestUrl(subject: SamlSubject, requestId: string, origin: string): Promise<string | null>;
  /** The SP metadata to give the IdP, signed when the app has a key and metadata_signed. */
  metadata(origin: string): Promise<string>;
}

export interface SamlProvider extends Provider {
  readonly saml: SamlOperations;
}

export function isSamlProvider(provider: Provider): provider is SamlProvider {
  return 'saml' in provider;
}

/** The AuthnRequest's ID for a flow state: an XML ID must not start with a digit or "-". */
export function requestIdOf(state: string): string {
  return `_${state}`;
}

export function stateOfRequestId(id: string): string | null {
  return id.startsWith('_') ? id.slice(1) : null;
}

function pem(body: string): string {
  return `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n').trim()}\n-----END CERTIFICATE-----\n`;
}

export const saml: ProviderType = {
  id: 'saml',
  name: 'SAML',
  flows: ['provider_redirect'],
  options: {
    idp: { kind: 'object', appOnly: true, required: true },
    sp: { kind: 'object', appOnly: true },
    attribute_mapping: { kind: 'object', appOnly: true },
    advanced: { kind: 'object', appOnly: true },
    contact_person: { kind: 'object', appOnly: true },
    organization: { kind: 'object', appOnly: true },
    use_nameid_for_email: { kind: 'boolean', appOnly: true },
  },
  validate(app) {
    try {
      samlSettings(app);
      return null;
    } catch (error) {
      if (error instanceof SamlSettingsError) return `settings.${error.message}`.replace('settings.client_id', 'client_id');
      throw error;
    }
  },
  create(context): SamlProvider {
    const { app } = context;
    const settings = samlSettings(app);
    const idp = idpEndpoints(settings.idp);
    const endpoints = (origin: string): SpEndpoints => {
      const base = `${origin}/accounts/saml/${app.clientId}`;
      return {
        entityId: settings.spEntityId ?? `${base}/metadata/`,
        acsUrl: `${base}/acs/`,
        slsUrl: `${base}/sls/`,
        metadataUrl: `${base}/metadata/`,
        ssoPostUrl: `${base}/sso/`,
      };
    };
    const client = async (origin: string, messageId?: string, postBinding = false) => samlClient(settings, await idp(), endpoints(origin), messageId, postBinding);
    return {
      app,
      usesNonce: false,
      async authorizationUrl(request) {
        const origin = new URL(request.redirectUri).origin;
        if ((await idp()).ssoBinding === 'post') return new URL(`${endpoints(origin).ssoPostUrl}?${new URLSearchParams({ state: request.state })}`);
        const authn = await client(origin, requestIdOf(request.state));
        return new URL(await authn.getAuthorizeUrlAsync('', undefined, {}));
      },
      async completeRedirect() {
        throw new ProviderError('a SAML IdP answers at the ACS, not at a callback');
      },
      async verifyToken() {
        return null;
      },
      display(extraData) {
        const attributes = Object.fromEntries(Object.entries(extraData).filter((e): e is [string, string[]] => Array.isArray(e[1])));
        const identity = samlIdentity(settings, { attributes, nameId: '-', nameIdFormat: null } as Assertion);
        const fields = { username: identity.username, email: identity.emails[0]?.email, first_name: identity.firstName, last_name: identity.lastName };
        return accountDisplay(fields, app.name);
      },
      saml: {
        settings,
        endpoints,
        async verify(samlResponse, origin, now) {
          const sp = endpoints(origin);
          return verifyResponse({ settings, idp: await idp(), spEntityId: sp.entityId, acsUrl: sp.acsUrl, samlResponse, now });
        },
        async logout(query, rawQuery, origin) {
          return logoutMessage(await client(origin), settings, query, rawQuery);
        },
        async authnRequestForm(state, origin) {
          const endpoint = await idp();
          if (endpoint.ssoBinding !== 'post') return null;
          const message = await (await client(origin, requestIdOf(state), true)).getAuthorizeMessageAsync('', undefined, {});
          return { action: endpoint.ssoUrl, fields: { SAMLRequest: String(message.SAMLRequest) } };
        },
        async logoutRequestUrl(subject, requestId, origin) {
          if (!(await idp()).sloUrl) return null;
          const profile = { issuer: settings.idp.entityId, nameID: subject.nameId, nameIDFormat: subject.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', sessionIndex: subject.sessionIndex ?? undefined };
          return (await client(origin, requestId)).getLogoutUrlAsync(profile, '', {});
        },
        async metadata(origin) {
          const { advanced } = settings;
          // The metadata says nothing of the IdP: it is served even while the IdP's own metadata cannot be read.
          const sp = samlClient(settings, { ssoUrl: endpoints(origin).acsUrl, ssoBinding: 'redirect', sloUrl: null, certs: ['unused'] }, endpoints(origin));
          const cert = advanced.x509cert ? pem(advanced.x509cert) : null;
          // With a private key the metadata lists the signing certificate.
          if (advanced.privateKey) sp.options.privateKey = advanced.privateKey;
          // node-saml names HTTP-POST for the SLS, which takes the redirect binding only: corrected before it is signed.
          const xml = sp
            .generateServiceProviderMetadata(advanced.wantAssertionEncrypted ? cert : null, cert)
            .replace(/(<SingleLogoutService Binding=")[^"]*"/, `$1${BINDINGS.redirect}"`);
          if (!advanced.metadataSigned || !advanced.privateKey) return xml;
          return signXmlMetadata(xml, { privateKey: advanced.privateKey, signatureAlgorithm: advanced.signatureAlgorithm, digestAlgorithm: advanced.digestAlgorithm });
        },
      },
    };
  },
};
