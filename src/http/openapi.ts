import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

// An OpenAPI document of a listener's routes and a small page of our own
// that shows it; the Swagger UI assets the page loads are served from this
// server (node_modules), never from a CDN. The public API has one at
// /_service/openapi.html, the admin listener its own at /admin/openapi.html.

export interface OpenApiDocument {
  title: string;
  description: string;
  /** Where the document and its page live: `${base}.json`, `${base}.html`, the assets under `${base}/static/`. */
  base: string;
  securitySchemes: Record<string, { type: 'apiKey'; in: 'header'; name: string } | { type: 'http'; scheme: 'bearer' }>;
  /** Schemes every operation requires, when all of them do. */
  security?: Array<Record<string, string[]>>;
}

function page(title: string, base: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<link rel="stylesheet" href="${base}/static/swagger-ui.css">
</head>
<body>
<div id="api"></div>
<script src="${base}/static/swagger-ui-bundle.js"></script>
<script src="${base}/static/openapi-init.js"></script>
</body>
</html>`;
}

/** `pagePolicy` gives the page the content security policy its assets need. */
export async function registerOpenApi(app: FastifyInstance, doc: OpenApiDocument, shared: object[], pagePolicy: onRequestHookHandler): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: doc.title, version: '1', description: doc.description },
      components: { securitySchemes: doc.securitySchemes },
      ...(doc.security ? { security: doc.security } : {}),
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  for (const schema of shared) app.addSchema(schema);
  await app.register(swaggerUi, { routePrefix: doc.base, staticCSP: true, uiConfig: { deepLinking: true } });

  const html = page(doc.title, doc.base);
  const init = `window.ui = SwaggerUIBundle({ url: '${doc.base}.json', dom_id: '#api', deepLinking: true });`;
  app.get(`${doc.base}.json`, { schema: { hide: true } }, async () => app.swagger());
  app.get(`${doc.base}.html`, { schema: { hide: true }, onRequest: pagePolicy }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
  app.get(`${doc.base}/static/openapi-init.js`, { schema: { hide: true } }, async (_request, reply) => reply.type('application/javascript').send(init));
}

/** The public API's document: both client prefixes. */
export const publicApiDocument: OpenApiDocument = {
  title: 'Headless Auth API',
  description:
    'A JSON API for signup, login, verification and sessions, wire-compatible with django-allauth headless clients. Browser clients (`/_service/browser/v1`) use the `sessionid` cookie and send the `csrftoken` cookie value in `X-CSRFToken` on unsafe methods. App clients (`/_service/app/v1`) send `X-Session-Token`. Every body is JSON: `{status, data?, meta?, errors?}`. Besides the codes each operation lists: any request may answer 400 `invalid` (with `param`) for control characters in a text field, and 503 `service_unavailable` with `Retry-After` while the database or Redis does not answer.',
  base: '/_service/openapi',
  securitySchemes: {
    sessionToken: { type: 'apiKey', in: 'header', name: 'X-Session-Token' },
    csrfToken: { type: 'apiKey', in: 'header', name: 'X-CSRFToken' },
  },
};
