import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

const UI_PREFIX = '/_service/openapi';

// A small page of our own at /_service/openapi.html; the Swagger UI assets it
// loads are served from this server (node_modules), never from a CDN.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Headless Auth API</title>
<link rel="stylesheet" href="${UI_PREFIX}/static/swagger-ui.css">
</head>
<body>
<div id="api"></div>
<script src="${UI_PREFIX}/static/swagger-ui-bundle.js"></script>
<script src="${UI_PREFIX}/static/openapi-init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/_service/openapi.json', dom_id: '#api', deepLinking: true });`;

/** `pagePolicy` gives the page the content security policy its assets need. */
export async function registerOpenApi(app: FastifyInstance, shared: object[], pagePolicy: onRequestHookHandler): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Headless Auth API',
        version: '1',
        description:
          'A JSON API for signup, login, verification and sessions, wire-compatible with django-allauth headless clients. Browser clients (`/_service/browser/v1`) use the `sessionid` cookie and send the `csrftoken` cookie value in `X-CSRFToken` on unsafe methods. App clients (`/_service/app/v1`) send `X-Session-Token`. Every body is JSON: `{status, data?, meta?, errors?}`. Besides the codes each operation lists: any request may answer 400 `invalid` (with `param`) for control characters in a text field, and 503 `service_unavailable` with `Retry-After` while the database or Redis does not answer.',
      },
      components: {
        securitySchemes: {
          sessionToken: { type: 'apiKey', in: 'header', name: 'X-Session-Token' },
          csrfToken: { type: 'apiKey', in: 'header', name: 'X-CSRFToken' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  for (const schema of shared) app.addSchema(schema);
  await app.register(swaggerUi, { routePrefix: UI_PREFIX, staticCSP: true, uiConfig: { deepLinking: true } });

  app.get('/_service/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/_service/openapi.html', { schema: { hide: true }, onRequest: pagePolicy }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get(`${UI_PREFIX}/static/openapi-init.js`, { schema: { hide: true } }, async (_request, reply) => reply.type('application/javascript').send(INIT));
}
