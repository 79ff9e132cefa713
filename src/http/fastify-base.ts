import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Deps } from '../flows/context.js';
import type { Logger } from '../observability/logger.js';
import { AccessLog } from '../observability/access-log.js';
import { clientErrorHandler, expectationFailed, frameworkErrorHandler, refuseMissingHost, registerErrorHandling } from './errors.js';
import { refuseControlCharacters } from './control-characters.js';
import { RequestObserver } from './request-observer.js';
import { withLazyRequestLoggers } from './request-logger.js';
import { requestIdGenerator } from './request-id.js';

// What both listeners, the public API and the admin API, stand on: one log
// line and one metric sample per request, request ids, the envelope for
// every error, the body limit, trusted proxies, strict schemas, and JSON as
// the only body.

export function fastifyBase(deps: Deps, logger: Logger, options: { loggerInstance?: FastifyBaseLogger; shutdown?: Pick<FastifyServerOptions, 'return503OnClosing' | 'forceCloseConnections'> } = {}): FastifyInstance {
  const { config } = deps;
  const app = Fastify({
    // request.log is made lazily, on its first line (request-logger.ts).
    loggerInstance: withLazyRequestLoggers(options.loggerInstance ?? (logger as FastifyBaseLogger)),
    ...options.shutdown,
    // One log line and one metric sample per request (request-observer.ts): its route pattern, never its URL.
    logController: new RequestObserver(deps.metrics, new AccessLog(logger), logger),
    genReqId: requestIdGenerator(config.trustedProxyCount),
    requestIdHeader: false,
    bodyLimit: config.requestBodyLimit,
    // Client IPs come from X-Forwarded-For only behind a known number of proxies.
    trustProxy: config.trustedProxyCount > 0 ? (_address: string, hop: number) => hop < config.trustedProxyCount : false,
    ajv: { customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false, strict: true } },
    frameworkErrors: frameworkErrorHandler(deps.i18n),
    clientErrorHandler: clientErrorHandler(deps.i18n),
    // Refused in the envelope instead (refuseMissingHost), not with Node's empty 400.
    http: { requireHostHeader: false },
  });
  app.server.on('checkExpectation', expectationFailed(deps.i18n));
  refuseMissingHost(app, deps.i18n);
  registerErrorHandling(app, deps);
  refuseControlCharacters(app, deps.i18n);
  app.decorateRequest('outcome', null);

  // Only JSON bodies; an empty body on a JSON request reads as no body, as
  // clients send for bodiless POSTs such as resend.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    parseJson(request, body as string, done);
  });
  return app;
}
