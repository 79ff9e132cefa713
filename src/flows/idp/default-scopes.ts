import type { Deps } from '../context.js';
import { findIdpClient } from '../../store/idp-clients.js';

/** The reference's default scopes: what a client's authorization request without `scope` asks for (none for an unknown client). */
export async function defaultScopesOf(deps: Deps, clientId: string): Promise<string[]> {
  return (await findIdpClient(deps.db, clientId))?.defaultScopes ?? [];
}
