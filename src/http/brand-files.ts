import type { FastifyInstance } from 'fastify';
import type { BrandFile } from '../config/branding.js';

// The brand's files (BRANDING_LOGO_FILE, BRANDING_STYLESHEET_FILE), read at
// start and served from memory under fixed names: logo.<type> and style.css.
//
// The URLs the configuration hands out carry `?v=<digest>`, so that a
// changed file is a new URL: those are cached for a year, as immutable. A
// request without the current digest (a hand-written link, an old mail)
// gets an hour and the ETag to revalidate with.
//
// Every answer otherwise keeps the API's headers, with two exceptions. Its
// Cross-Origin-Resource-Policy is cross-origin, since a webmail page or the
// SPA shows the logo from another origin. And an SVG, which is a document
// that could script if opened by itself, gets a policy that runs nothing
// and sandboxes it (its own inline styles only, as SVGs from drawing tools
// carry them).

const YEAR = 365 * 86400;
const IMAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** Serves `files` at `${prefix}/<name>` on `app`. */
export function serveBrandFiles(app: FastifyInstance, prefix: string, files: readonly (BrandFile | undefined)[]): void {
  for (const file of files) {
    if (!file) continue;
    const etag = `"${file.version}"`;
    app.get(`${prefix}/${file.name}`, { schema: { hide: true } }, async (request, reply) => {
      const current = (request.query as { v?: unknown }).v === file.version;
      reply.header('cache-control', current ? `public, max-age=${YEAR}, immutable` : 'public, max-age=3600');
      reply.header('etag', etag);
      reply.header('cross-origin-resource-policy', 'cross-origin');
      if (file.contentType === 'image/svg+xml') reply.header('content-security-policy', IMAGE_POLICY);
      const known = request.headers['if-none-match'];
      if (known !== undefined && known.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
      return reply.type(file.contentType).send(file.body);
    });
  }
}
