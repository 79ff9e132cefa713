import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { fastifyBase } from '../fastify-base.js';
import cookie from '@fastify/cookie';
import type { AddressInfo } from 'node:net';
import type { Deps } from '../../flows/context.js';
import type { Logger } from '../../observability/logger.js';
import { docsPolicy, registerResponseHeaders } from '../security-headers.js';
import { sharedSchemas } from '../schemas.js';
import { mfaSchemas } from '../routes/mfa/schemas.js';
import { registerOpenApi } from '../openapi.js';
import { mountEndpoints } from '../endpoint.js';
import { adminApiDocument } from './openapi.js';
import { registerKeyAuth } from './key-auth.js';
import { adminEndpoints } from './routes/index.js';
import { adminSchemas } from './schemas.js';
import { registerConsole } from './console/index.js';
import { answerWrongMethods } from './wrong-method.js';

// The admin listener (ADMIN_PORT): the admin REST API under /admin/v1, its
// OpenAPI document and page, and the admin console under /console. A server
// of its own, like the metrics port, so that it can stay on a private
// network while the public API faces the internet. Same envelope, same
// error handling, same body rules as the public API.

export interface AdminServer {
  http: FastifyInstance;
  listen(host: string, port: number): Promise<AddressInfo>;
  close(): Promise<void>;
}

export async function createAdminServer(deps: Deps, logger: Logger): Promise<AdminServer> {
  const { config } = deps;
  const app = fastifyBase(deps, logger, { loggerInstance: (logger as FastifyBaseLogger).child({ listener: 'admin' }) });
  registerResponseHeaders(app, config.httpSecurity);
  await app.register(cookie);
  await registerOpenApi(app, adminApiDocument, [...sharedSchemas(config), ...mfaSchemas, ...adminSchemas], docsPolicy(config.httpSecurity));
  await app.register(
    async (scope) => {
      registerKeyAuth(scope, deps);
      answerWrongMethods(scope, deps.i18n);
      await mountEndpoints(scope, deps, null, adminEndpoints);
    },
    { prefix: '/admin/v1' },
  );
  if (config.admin.console) await registerConsole(app, deps);
  await app.ready();

  return {
    http: app,
    async listen(host, port) {
      await app.listen({ host, port });
      return app.server.address() as AddressInfo;
    },
    async close() {
      await app.close();
    },
  };
}
