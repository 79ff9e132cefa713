import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

// The admin API's own OpenAPI document (/admin/openapi.json) and page
// (/admin/openapi.html), on the admin listener only; the Swagger UI assets
// come from this server, never from a CDN.

const UI_PREFIX = '/admin/openapi';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Headless Auth admin API</title>
<link rel="stylesheet" href="${UI_PREFIX}/static/swagger-ui.css">
</head>
<body>
<div id="api"></div>
<script src="${UI_PREFIX}/static/swagger-ui-bundle.js"></script>
<script src="${UI_PREFIX}/static/openapi-init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/admin/openapi.json', dom_id: '#api', deepLinking: true });`;

export async function registerAdminOpenApi(app: FastifyInstance, shared: object[], pagePolicy: onRequestHookHandler): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Headless Auth admin API',
        version: '1',
        description:
          'Administration of users, their addresses, phone numbers, sessions, second factors and social accounts, the audit trail and webhook deliveries. Served only on the admin listener (ADMIN_PORT). Every request sends an admin API key (`headless-auth admin-keys create`) as `Authorization: Bearer <key>`; a key with scope `read` may only GET. Every change is an audit event with `actor: "admin_api"` and the key\'s id as `actor_id`. Bodies are JSON in the envelope of the public API: `{status, data?, meta?, errors?}`, errors as `{code, message, param?}`. Lists page with `limit` and `meta.next_cursor` (pass it back as `cursor`).',
      },
      components: { securitySchemes: { adminKey: { type: 'http', scheme: 'bearer' } } },
      security: [{ adminKey: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  for (const schema of shared) app.addSchema(schema);
  await app.register(swaggerUi, { routePrefix: UI_PREFIX, staticCSP: true, uiConfig: { deepLinking: true } });

  app.get('/admin/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/admin/openapi.html', { schema: { hide: true }, onRequest: pagePolicy }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get(`${UI_PREFIX}/static/openapi-init.js`, { schema: { hide: true } }, async (_request, reply) => reply.type('application/javascript').send(INIT));
}
