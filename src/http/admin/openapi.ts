import type { OpenApiDocument } from '../openapi.js';

// The admin API's own OpenAPI document (/admin/openapi.json) and page
// (/admin/openapi.html), on the admin listener only.

export const adminApiDocument: OpenApiDocument = {
  title: 'Headless Auth admin API',
  description:
    'Administration of users, their addresses, phone numbers, sessions, second factors and social accounts, the audit trail, webhook deliveries and the OpenID provider\'s clients. Served only on the admin listener (ADMIN_PORT). Every request sends an admin API key (`headless-auth admin-keys create`) as `Authorization: Bearer <key>`; a key with scope `read` may only GET. Every change is an audit event with `actor: "admin_api"` and the key\'s id as `actor_id`. Bodies are JSON in the envelope of the public API: `{status, data?, meta?, errors?}`, errors as `{code, message, param?}`. Lists page with `limit` and `meta.next_cursor` (pass it back as `cursor`).',
  base: '/admin/openapi',
  securitySchemes: { adminKey: { type: 'http', scheme: 'bearer' } },
  security: [{ adminKey: [] }],
};
