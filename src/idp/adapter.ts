import { hashSecret } from '../security/secrets.js';
import type { AtRestCipher } from '../security/at-rest.js';
import type { Db } from '../store/db.js';
import { consumePayload, destroyGrant, destroyPayload, findPayload, findPayloadBy, upsertPayloads, type PayloadRow, type PayloadWrite } from '../store/idp-payloads.js';
import { WriteBatcher } from '../store/write-batcher.js';
import { findSharedIdpClient, type IdpClientRecord } from '../store/idp-clients.js';
import { clientMetadata, requestAuth } from './client-metadata.js';

// oidc-provider's storage interface over our database (idp_payloads), and
// its Client model over our clients table (idp_clients).
//
// Every id, user code and uid is looked up by its SHA-256: authorization
// codes, access and refresh tokens and device codes are bearer secrets, and
// a copy of the database must not hand them out. The token's own id (`jti`)
// is dropped from the stored payload and put back from the id the provider
// asks with; only a device code, found by its user code, keeps its id
// sealed at rest. Expiry is judged by the server's clock.

type Payload = Record<string, unknown> & { jti?: string; grantId?: string; userCode?: string; uid?: string; accountId?: string; consumed?: number };

export interface AdapterDeps {
  db: Db;
  atRest: AtRestCipher;
  now: () => number;
  /** The JWS algorithm of ID tokens, from the provider's key. */
  signingAlg: string;
  /** The issuer of the provider this adapter serves. */
  issuer: string;
  /** Called with a client's scopes before its metadata goes to the provider (see provider.ts, supportedScopes). */
  onClientScopes(scopes: string[]): void;
  /** IDP_OIDC_CLIENT_ID_METADATA_DOCUMENTS: the client a URL client_id describes (client-id-metadata.ts). */
  metadataDocumentClient?: (id: string) => Promise<IdpClientRecord | null>;
}

/**
 * A JWT access token (IDP_OIDC_ACCESS_TOKEN_FORMAT=jwt) sent to introspection
 * or revocation arrives as `DIGEST_REF` and its SHA-256 (see
 * http/routes/idp/provider.ts: oidc-provider refuses JWTs there), which is
 * looked up as the digest it is, in those two requests only.
 */
export const DIGEST_REF = 'sha256~';

const key = (value: string) => (value.startsWith(DIGEST_REF) && requestAuth.getStore()?.byDigest ? value.slice(DIGEST_REF.length) : hashSecret(value));

/** Models whose id is a bearer secret: kept out of the stored payload. */
const SECRET_IDS = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'ClientCredentials', 'DeviceCode', 'BackchannelAuthenticationRequest', 'PushedAuthorizationRequest']);

/**
 * Models whose every save writes an id the same save has just made, which no
 * one can know, let alone read or revoke, before the save is done: these
 * writes wait for each other and go out together, one statement for many
 * tokens (on SQLite one commit). The token endpoint answers once its own
 * write is in.
 */
const MINTED = new Set(['AccessToken', 'ClientCredentials', 'RefreshToken', 'AuthorizationCode']);

export function createAdapterClass(deps: AdapterDeps) {
  const minted = new WriteBatcher<string, PayloadWrite>((batch) => upsertPayloads(deps.db, [...batch.values()]));
  const queued = new Set<Promise<void>>();
  const mint = (row: PayloadWrite): Promise<void> => {
    const written = minted.add(`${row.model}:${row.id}`, row);
    queued.add(written);
    const settled = () => void queued.delete(written);
    written.then(settled, settled);
    return written;
  };
  // A client's metadata per record (the same record while its row is unchanged, findSharedIdpClient) and per authentication method of the request.
  const metadataOf = new WeakMap<IdpClientRecord, Map<boolean, Payload>>();
  return class KyselyAdapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const stored: Payload = { ...payload };
      if (SECRET_IDS.has(this.model)) delete stored.jti;
      delete stored.consumed;
      if (this.model === 'DeviceCode' && payload.jti) stored.sealedJti = deps.atRest.seal(payload.jti, `idp-device:${key(payload.userCode ?? '')}`);
      const row: PayloadWrite = {
        model: this.model,
        id: key(id),
        payload: JSON.stringify(stored),
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ? key(payload.userCode) : null,
        uid: payload.uid ? key(payload.uid) : null,
        accountId: typeof payload.accountId === 'string' ? payload.accountId : null,
        issuer: deps.issuer,
        expiresAt: typeof expiresIn === 'number' ? deps.now() + expiresIn * 1000 : null,
      };
      await (MINTED.has(this.model) ? mint(row) : upsertPayloads(deps.db, [row]));
    }

    async find(id: string): Promise<Payload | undefined> {
      if (this.model === 'Client') return findClient(deps, metadataOf, id);
      return this.restore(await findPayload(deps.db, this.model, key(id), deps.now()), id);
    }

    async findByUserCode(userCode: string): Promise<Payload | undefined> {
      const row = await findPayloadBy(deps.db, this.model, 'user_code', key(userCode), deps.now());
      if (!row) return undefined;
      const payload = JSON.parse(row.payload) as Payload & { sealedJti?: string };
      const jti = payload.sealedJti ? deps.atRest.open(payload.sealedJti, `idp-device:${key(userCode)}`) : null;
      return jti ? this.restore(row, jti) : undefined;
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      const row = await findPayloadBy(deps.db, this.model, 'uid', key(uid), deps.now());
      if (!row) return undefined;
      return this.restore(row, undefined);
    }

    async consume(id: string): Promise<void> {
      await consumePayload(deps.db, this.model, key(id), deps.now());
    }

    async destroy(id: string): Promise<void> {
      await destroyPayload(deps.db, this.model, key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      // A token of this grant still queued (a refresh racing a replay) is written first, so that the revocation ends it too.
      await Promise.allSettled([...queued]);
      await destroyGrant(deps.db, grantId);
    }

    private restore(row: PayloadRow | null, jti: string | undefined): Payload | undefined {
      if (!row) return undefined;
      const payload = JSON.parse(row.payload) as Payload & { sealedJti?: string };
      delete payload.sealedJti;
      if (jti !== undefined && SECRET_IDS.has(this.model)) payload.jti = jti;
      if (row.consumedAt !== null) payload.consumed = Math.floor(row.consumedAt / 1000);
      return payload;
    }
  };
}

/**
 * The client's metadata for the provider. The same record gives the same
 * metadata object, frozen: the provider keys its Client objects by a hash of
 * the metadata, so an unchanged client is the same Client, and a changed one
 * (another secret hash, another scope) a new one from the request that reads
 * the change.
 */
async function findClient(deps: AdapterDeps, metadataOf: WeakMap<IdpClientRecord, Map<boolean, Payload>>, id: string): Promise<Payload | undefined> {
  const client = (await findSharedIdpClient(deps.db, id)) ?? (await deps.metadataDocumentClient?.(id)) ?? null;
  if (!client) return undefined;
  deps.onClientScopes(client.scopes);
  const basic = requestAuth.getStore()?.basic ?? true;
  let byMethod = metadataOf.get(client);
  if (!byMethod) metadataOf.set(client, (byMethod = new Map()));
  let metadata = byMethod.get(basic);
  if (!metadata) byMethod.set(basic, (metadata = Object.freeze(clientMetadata(client, deps.signingAlg)) as Payload));
  return metadata;
}
