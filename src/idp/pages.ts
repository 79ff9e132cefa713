import { createHash } from 'node:crypto';
import { brandingCspSources } from '../config/branding-csp.js';
import type { Config } from '../config/config.js';
import type { Translator } from '../i18n/catalog.js';
import type { Templates } from '../templates/engine.js';

// The few pages the OpenID provider renders itself (consent, device code
// entry and confirmation, logout, errors): templates under idp/oidc/, plain
// HTML forms in the request's language, no script, one inline stylesheet
// allowed by its hash and, with BRANDING_STYLESHEET_URL, that one sheet.
//
// No form-action directive: browsers apply it to the redirect that follows a
// form post, and the consent form's answer is a redirect to the client.

/** The inline stylesheet, in the brand's colour: fixed at start, so the policy can carry its hash. */
function pageStyle(config: Config): string {
  const { primaryColor, primaryTextColor } = config.branding;
  return (
    'body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222;line-height:1.5}' +
    '.brand{margin-bottom:1.5rem;font-weight:600;font-size:1.1rem}.brand img{max-height:2.5rem;max-width:100%}' +
    'h1{font-size:1.4rem;font-weight:500}ul{padding-left:1.2rem}code{font-size:1.6rem;letter-spacing:.1em}' +
    'button,input[type=text]{font-size:1rem;padding:.5rem .8rem;margin:.3rem .3rem .3rem 0;border-radius:.3rem}' +
    `button{background:${primaryColor};color:${primaryTextColor};border:1px solid ${primaryColor};cursor:pointer}` +
    `button.secondary{background:transparent;color:${primaryColor}}` +
    'input[type=text]{text-transform:uppercase;width:12rem;border:1px solid #888}.error{color:#b00020}'
  );
}

/** A brand file given as a path is served here, on the pages' own origin. */
const sameOrigin = (url: string | undefined): string[] => (url?.startsWith('/') ? ["'self'"] : []);

/** The pages' policy: the inline style by hash, and the brand's logo and stylesheet by their origins. */
function pageCsp(config: Config, style: string): string {
  const { logoUrl, stylesheetUrl } = config.branding;
  const brand = brandingCspSources(config.branding);
  const img = [...brand.img, ...sameOrigin(logoUrl), ...sameOrigin(stylesheetUrl)];
  const font = [...brand.font, ...sameOrigin(stylesheetUrl)];
  // script-src 'none' named on its own: oidc-provider adds the hash of its
  // form_post script to it (response_mode=form_post), and so does logout.ts
  // for the one self-submitting logout form.
  return [
    "default-src 'none'",
    "script-src 'none'",
    [`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`, ...brand.style, ...sameOrigin(stylesheetUrl)].join(' '),
    ...(img.length > 0 ? [`img-src ${[...new Set(img)].join(' ')}`] : []),
    ...(font.length > 0 ? [`font-src ${font.join(' ')}`] : []),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** Why an error page is shown: each has its own heading and text in pages.json; `oauth` shows the provider's description. */
export type PageError = 'expired' | 'failed' | 'unsupported' | 'form' | 'rate_limited' | 'oauth';

export interface Pages {
  /** The Content-Security-Policy of every page of the provider. */
  readonly csp: string;
  /** `idp/oidc/<name>.html` in the language the Accept-Language header asks for. */
  render(name: string, acceptLanguage: string | undefined, context?: Record<string, unknown>): string;
  error(acceptLanguage: string | undefined, error: PageError, description?: string): string;
  /** What a scope lets a client do, in the request's language (its name when the catalogue has no text for it). */
  scopeText(acceptLanguage: string | undefined, scope: string): string;
}

export interface PageDeps {
  config: Config;
  templates: Templates;
  i18n: Translator;
}

const made = new WeakMap<Templates, Pages>();

/** The pages of one server (its templates, settings and catalogues), made once. */
export function pagesOf(deps: PageDeps): Pages {
  let pages = made.get(deps.templates);
  if (pages === undefined) made.set(deps.templates, (pages = createPages(deps)));
  return pages;
}

function createPages({ config, templates, i18n }: PageDeps): Pages {
  const style = pageStyle(config);
  const base = { page_style: style, stylesheet_url: config.branding.stylesheetUrl ?? '', current_site: { name: config.siteName, domain: new URL(config.frontendUrls.account_signup).host } };
  const render = (name: string, acceptLanguage: string | undefined, context: Record<string, unknown> = {}) =>
    templates.render(`idp/oidc/${name}.html`, i18n.negotiate(acceptLanguage), { ...base, ...context });
  return {
    csp: pageCsp(config, style),
    render,
    error: (acceptLanguage, error, description = '') => render('error', acceptLanguage, { error, description }),
    scopeText: (acceptLanguage, scope) => (i18n.has(`pages.scope.${scope}`) ? i18n.t(i18n.negotiate(acceptLanguage), `pages.scope.${scope}`) : scope),
  };
}

/** Sends a page as the provider's answer (a Koa context). */
export function htmlBody(ctx: any, html: string): void {
  ctx.type = 'html';
  ctx.body = html;
}

/** The Accept-Language of a Koa context. */
export const acceptLanguageOf = (ctx: any): string | undefined => ctx.get?.('accept-language') || undefined;
