import type { Tx } from '../../../store/db.js';
import { countIdpRefreshTokens, readIdpClients, readIdpRefreshTokens, type SourceIdpRefreshToken } from '../../../store/allauth/idp.js';
import { findImportRecords, insertImportRecords, type NewImportRecord } from '../../../store/import-records.js';
import { findIdpClient, insertIdpClient } from '../../../store/idp-clients.js';
import { upsertPayload } from '../../../store/idp-payloads.js';
import { hashSecret, randomKey } from '../../../security/secrets.js';
import { importedUserIds } from './imported-users.js';
import type { ImportRun, ImportStep } from './step.js';

/**
 * allauth.idp.oidc: its clients, under the same ids and with their secrets
 * as the Django hashes they are (so applications keep their credentials),
 * and its live refresh tokens, each as a grant of its scopes to its client
 * and the same token (so applications keep their users signed in and users
 * are not asked to consent again). The reference stores a token as the
 * SHA-256 of its value, as the OpenID provider here does.
 */
export const idpStep: ImportStep = {
  label: 'OpenID provider',
  total: async (run) => (await readIdpClients(run.source)).length + (await countIdpRefreshTokens(run.source, run.now)),
  async run(run, advance) {
    const clients = await readIdpClients(run.source);
    await run.db.transaction().execute(async (tx) => {
      const imported = await findImportRecords(tx, run.sourceName, 'idp_client', clients.map((c) => c.id));
      const created: NewImportRecord[] = [];
      for (const client of clients) {
        if (imported.has(client.id)) run.summary.alreadyImported('idp_clients');
        else if (await findIdpClient(tx, client.id)) run.summary.skipped('idp_clients', 'client_here');
        else {
          await insertIdpClient(tx, {
            id: client.id,
            name: client.name,
            secretHash: client.type === 'public' ? null : client.secret,
            type: client.type === 'public' ? 'public' : 'confidential',
            scopes: client.scopes,
            defaultScopes: client.defaultScopes,
            grantTypes: client.grantTypes,
            responseTypes: client.responseTypes,
            redirectUris: client.redirectUris,
            // The reference accepts a post-logout redirect to any of the client's redirect URIs' sites; here they are registered.
            postLogoutRedirectUris: client.redirectUris,
            corsOrigins: client.corsOrigins,
            allowUriWildcards: client.allowUriWildcards,
            skipConsent: client.skipConsent,
            backchannelLogoutUri: null,
            resourceServer: false,
            ownerId: null,
            createdAt: client.createdAt,
            // The reference's client has no keys nor a method: a confidential one has its secret, sent either way.
            tokenEndpointAuthMethod: client.type === 'public' ? 'none' : 'client_secret_basic',
            jwks: null,
            jwksUri: null,
            // The reference has no pushed authorization requests.
            requirePushedAuthorizationRequests: false,
          });
          created.push({ source: run.sourceName, kind: 'idp_client', sourceId: client.id, targetId: 0, fingerprint: null, importedAt: run.now });
          run.summary.imported('idp_clients');
        }
      }
      await insertImportRecords(tx, created);
    });
    advance(clients.length);

    for (let after = 0; ; ) {
      const tokens = await readIdpRefreshTokens(run.source, run.now, after, run.batchSize);
      if (tokens.length === 0) break;
      await run.db.transaction().execute((tx) => importTokens(run, tx, tokens));
      after = tokens.at(-1)!.id;
      advance(tokens.length);
    }
  },
};

async function importTokens(run: ImportRun, tx: Tx, tokens: SourceIdpRefreshToken[]): Promise<void> {
  const imported = await findImportRecords(tx, run.sourceName, 'idp_refresh_token', tokens.map((t) => String(t.id)));
  const owners = await importedUserIds(tx, run, tokens.map((t) => t.userId));
  const created: NewImportRecord[] = [];
  const lifetime = run.config.idp.refreshTokenExpiresIn;
  const iat = Math.floor(run.now / 1000);
  const exp = iat + lifetime;
  for (const token of tokens) {
    if (imported.has(String(token.id))) {
      run.summary.alreadyImported('idp_grants');
      continue;
    }
    const owner = owners.get(token.userId);
    if (owner === undefined) {
      run.summary.skipped('idp_grants', 'user_not_imported');
      continue;
    }
    if (!(await findIdpClient(tx, token.clientId))) {
      run.summary.skipped('idp_grants', 'client_not_imported');
      continue;
    }
    const accountId = String(owner);
    const grantId = randomKey(21);
    const scope = token.scopes.join(' ');
    const common = { grantId: null, userCode: null, uid: null, accountId, issuer: run.config.idp.issuer, expiresAt: exp * 1000 };
    // Stored as the adapter stores what oidc-provider saves (src/idp/adapter.ts): ids as their SHA-256, token ids out of the payload.
    await upsertPayload(tx, { ...common, model: 'Grant', id: hashSecret(grantId), payload: JSON.stringify({ iat, exp, accountId, clientId: token.clientId, kind: 'Grant', jti: grantId, openid: { scope } }) });
    await upsertPayload(tx, {
      ...common,
      model: 'RefreshToken',
      id: token.hash,
      grantId,
      payload: JSON.stringify({ iat: Math.floor(token.createdAt / 1000), iiat: Math.floor(token.createdAt / 1000), exp, kind: 'RefreshToken', accountId, clientId: token.clientId, grantId, gty: 'authorization_code', scope, rotations: 0, expiresWithSession: false }),
    });
    created.push({ source: run.sourceName, kind: 'idp_refresh_token', sourceId: String(token.id), targetId: 0, fingerprint: null, importedAt: run.now });
    run.summary.imported('idp_grants');
  }
  await insertImportRecords(tx, created);
}
