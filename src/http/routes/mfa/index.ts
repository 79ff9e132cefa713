import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../flows/context.js';
import type { ClientKind } from '../../../config/config.js';
import { authenticatorRoutes } from './authenticators.js';
import { twoFactorRoutes } from './two-factor.js';
import { webauthnRoutes } from './webauthn.js';

/** The MFA endpoints, mounted only when MFA_ENABLED is on. */
export function mfaRoutes(app: FastifyInstance, deps: Deps, client: ClientKind): void {
  if (!deps.config.mfa.enabled) return;
  authenticatorRoutes(app, deps);
  twoFactorRoutes(app, deps, client);
  if (deps.config.mfa.supportedTypes.includes('webauthn')) webauthnRoutes(app, deps);
}
