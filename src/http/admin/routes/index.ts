import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../flows/context.js';
import { userRoutes } from './users.js';
import { emailAddressRoutes } from './email-addresses.js';
import { phoneRoutes } from './phones.js';
import { sessionRoutes } from './sessions.js';
import { authenticatorRoutes } from './authenticators.js';
import { socialAccountRoutes } from './social-accounts.js';
import { auditRoutes } from './audit.js';
import { webhookRoutes } from './webhooks.js';
import { idpClientRoutes } from './idp-clients.js';

/** Every admin resource; mounted behind API keys (/admin/v1) and behind the console's sign-in (/console/api/v1). */
export function adminRoutes(app: FastifyInstance, deps: Deps): void {
  userRoutes(app, deps);
  emailAddressRoutes(app, deps);
  phoneRoutes(app, deps);
  sessionRoutes(app, deps);
  authenticatorRoutes(app, deps);
  socialAccountRoutes(app, deps);
  auditRoutes(app, deps);
  webhookRoutes(app, deps);
  idpClientRoutes(app, deps);
}
