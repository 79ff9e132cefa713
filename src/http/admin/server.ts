import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { AddressInfo } from 'node:net';
import type { Deps } from '../../flows/context.js';
import type { Logger } from '../../observability/logger.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from '../errors.js';
import { refuseControlCharacters } from '../control-characters.js';
import { docsPolicy, registerResponseHeaders } from '../security-headers.js';
import { requestIdGenerator } from '../request-id.js';
import { sharedSchemas } from '../schemas.js';
import { mfaSchemas } from '../routes/mfa/schemas.js';
import { registerAdminOpenApi } from './openapi.js';
import { registerKeyAuth } from './key-auth.js';
import { adminRoutes } from './routes/index.js';
import { adminSchemas } from './schemas.js';
import { RequestObserver } from '../request-observer.js';
import { lazyRequestLogger } from '../request-logger.js';
import { AccessLog } from '../../observability/access-log.js';
import { registerConsole } from './console/index.js';

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
  const app = Fastify({
    loggerInstance: (logger as FastifyBaseLogger).child({ listener: 'admin' }),
    // One line per request as on the public listener: its route pattern, never its URL (queries carry addresses).
    logController: new RequestObserver(deps.metrics, new AccessLog(logger), logger),
    childLoggerFactory: lazyRequestLogger,
    genReqId: requestIdGenerator(config.trustedProxyCount),
    requestIdHeader: false,
    bodyLimit: config.requestBodyLimit,
    trustProxy: config.trustedProxyCount > 0 ? (_address: string, hop: number) => hop < config.trustedProxyCount : false,
    ajv: { customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false, strict: true } },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });
  registerErrorHandling(app, deps);
  refuseControlCharacters(app);
  app.decorateRequest('outcome', null);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    parseJson(request, body as string, done);
  });
  registerResponseHeaders(app, config.httpSecurity);
  await app.register(cookie);
  await registerAdminOpenApi(app, [...sharedSchemas, ...mfaSchemas, ...adminSchemas], docsPolicy(config.httpSecurity));
  await app.register(
    async (scope) => {
      registerKeyAuth(scope, deps);
      adminRoutes(scope, deps);
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
