import type { FastifyInstance } from 'fastify';
import { fastifyBase } from './fastify-base.js';
import cookie from '@fastify/cookie';
import type { Deps } from '../flows/context.js';
import type { ClientKind } from '../config/config.js';
import { registerClientAuth } from './client-auth.js';
import { registerCors } from './cross-origin.js';
import { docsPolicy, registerResponseHeaders } from './security-headers.js';
import { publicApiDocument, registerOpenApi } from './openapi.js';
import { sharedSchemas } from './schemas.js';
import { mountEndpoints } from './endpoint.js';
import { clientEndpoints } from './routes/index.js';
import { socialCallbackRoutes } from './routes/social/navigation.js';
import { mfaSchemas } from './routes/mfa/schemas.js';
import { operationsEndpoints, type OperationsRoutes } from './routes/operations/endpoints.js';
import { idpProviders, providerRoutes, type IdpProviders } from './routes/idp/provider.js';
import { interactionRoutes } from './routes/idp/interaction.js';
import { consentEndpoints } from './routes/idp/consent.js';
import { registrationRoutes } from './routes/idp/registration.js';
import { wellKnownRoutes } from './routes/idp/well-known.js';
import type { Logger } from '../observability/logger.js';
import { BRAND_PATH } from '../config/branding.js';
import { serveBrandFiles } from './brand-files.js';

export const clientPrefix = (client: ClientKind) => `/_service/${client}/v1`;

/** The API one client kind sees, mounted under its own prefix. */
async function clientApi(app: FastifyInstance, deps: Deps, client: ClientKind, idp: IdpProviders | null): Promise<void> {
  // Only browsers hold cookies; app requests skip the parsing altogether.
  if (client === 'browser') await app.register(cookie);
  registerClientAuth(app, deps, client);
  await mountEndpoints(app, deps, client, clientEndpoints);
  if (idp) await mountEndpoints(app, deps, client, consentEndpoints(idp));
}

export interface HttpServerOptions {
  logger: Logger;
  operations: OperationsRoutes;
  /** True once shutdown has begun, before the listener closes. */
  shuttingDown(): boolean;
}

export async function createHttpServer(deps: Deps, options: HttpServerOptions): Promise<FastifyInstance> {
  const { config } = deps;
  const app = fastifyBase(deps, options.logger, {
    // Shutdown drains instead (below): closing every connection would cut
    // requests in flight, and a request that arrives while they finish is
    // served rather than answered with Fastify's own 503 body.
    shutdown: { return503OnClosing: false, forceCloseConnections: false },
  });

  // Draining (app.close(), e.g. on SIGTERM): the listener closes and idle
  // connections go at once; requests already running finish (the database
  // closes only after the last connection), and each response closes its
  // connection, so the process exits without waiting out keep-alive timeouts.
  // Responses close their connections from the start of a shutdown already:
  // clients reconnect through the load balancer, to another instance, and
  // none sends on a kept-alive connection just as the drain closes it.
  let draining = false;
  app.addHook('preClose', (done) => {
    draining = true;
    app.server.closeIdleConnections();
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining || options.shuttingDown()) reply.header('connection', 'close');
    done(null, payload);
  });

  await registerCors(app, config.httpSecurity);
  registerResponseHeaders(app, config.httpSecurity);
  await registerOpenApi(app, publicApiDocument, [...sharedSchemas(config), ...mfaSchemas], docsPolicy(config.httpSecurity));
  await mountEndpoints(app, deps, null, operationsEndpoints(options.operations));
  serveBrandFiles(app, BRAND_PATH, [config.branding.logoFile, config.branding.stylesheetFile]);
  await socialCallbackRoutes(app, deps);
  const idp = config.idp.enabled ? await idpProviders(deps) : null;
  if (idp) {
    await providerRoutes(app, deps, idp);
    await interactionRoutes(app, deps, idp);
    await registrationRoutes(app, deps, idp);
    await wellKnownRoutes(app, deps, idp);
  }
  for (const client of config.clients) {
    await app.register((scope) => clientApi(scope, deps, client, idp), { prefix: clientPrefix(client) });
  }
  return app;
}
