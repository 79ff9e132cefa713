import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../config/config.js';
import type { BrandingSettings } from '../../../config/branding.js';
import { brandingCspSources, type BrandingCspSources } from '../../../config/branding-csp.js';
import { serveBrandFiles } from '../../brand-files.js';

// The brand on the console: its own copies of the brand's files on this
// listener (the public one may not be reachable from where the console is
// used, and the same origin keeps the page's policy at 'self'), a
// stylesheet of custom properties made from the colours, a small JSON the
// page reads its name and logo from, and a favicon.

const PREFIX = '/console/brand';

/** The logo and stylesheet URLs as the console uses them. */
export function consoleBrand(config: Config): Pick<BrandingSettings, 'logoUrl' | 'stylesheetUrl'> {
  const { branding } = config;
  const stylesheet = branding.stylesheetUrl;
  return {
    logoUrl: branding.logoFile ? `${PREFIX}/${branding.logoFile.name}?v=${branding.logoFile.version}` : branding.logoUrl,
    // A path names the public listener; the console reaches it only by the public URL.
    stylesheetUrl: branding.stylesheetFile
      ? `${PREFIX}/style.css?v=${branding.stylesheetFile.version}`
      : stylesheet?.startsWith('/') ? (config.publicUrl === undefined ? undefined : new URL(stylesheet, config.publicUrl).href) : stylesheet,
  };
}

/** The origins beyond its own the console's policy must allow for the brand. */
export function consoleBrandSources(config: Config): BrandingCspSources {
  return brandingCspSources(consoleBrand(config));
}

/**
 * The colours as custom properties app.css reads, at no specificity
 * (:where), so that the deployer's stylesheet, imported first, still sets
 * them. Colours are validated #hex, URLs serialised by URL: nothing here
 * can close the rule or the string.
 */
function brandCss(config: Config, stylesheetUrl: string | undefined): string {
  const { primaryColor, primaryTextColor } = config.branding;
  // Our own path, or an absolute URL whose serialisation escapes quotes and line breaks (and a backslash, which could escape the closing quote, by hand).
  const href = stylesheetUrl === undefined ? undefined : stylesheetUrl.startsWith('/') ? stylesheetUrl : new URL(stylesheetUrl).href.replace(/\\/g, '%5C');
  const imported = href === undefined ? '' : `@import url("${href}");\n`;
  return `${imported}:where(:root) { --brand-primary: ${primaryColor}; --brand-primary-text: ${primaryTextColor}; }\n`;
}

export function registerConsoleBrand(app: FastifyInstance, config: Config): void {
  const brand = consoleBrand(config);
  const css = brandCss(config, brand.stylesheetUrl);
  const about = { site_name: config.siteName, logo_url: brand.logoUrl ?? null };
  serveBrandFiles(app, PREFIX, [config.branding.logoFile, config.branding.stylesheetFile]);
  app.get(`${PREFIX}/brand.css`, { schema: { hide: true } }, async (_request, reply) => reply.type('text/css; charset=utf-8').send(css));
  app.get(`${PREFIX}/brand.json`, { schema: { hide: true } }, async (_request, reply) => reply.send({ status: 200, data: about }));
  // The logo is the favicon; without one, the console's own.
  app.get(`${PREFIX}/icon`, { schema: { hide: true } }, async (_request, reply) => reply.redirect(brand.logoUrl ?? '/console/assets/favicon.svg'));
}
