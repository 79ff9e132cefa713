import type { BrandingSettings } from './branding.js';

/** Origins a page's content security policy must allow, beside its own, for the brand to show. */
export interface BrandingCspSources {
  /** img-src: the logo's origin, and the stylesheet's (its url() images). */
  img: string[];
  /** style-src: the stylesheet's origin. */
  style: string[];
  /** font-src: the stylesheet's origin (its @font-face files). */
  font: string[];
}

function originOf(url: string | undefined): string[] {
  if (url === undefined || url.startsWith('/')) return [];
  return [new URL(url).origin];
}

/**
 * Worked out once at start from config.branding (or from the URLs a page
 * really uses, such as the console's copies of served files). A path, or a
 * file served here, needs nothing beyond 'self' when the page is on the
 * same origin; an external URL adds its origin, never a wildcard.
 */
export function brandingCspSources(branding: Pick<BrandingSettings, 'logoUrl' | 'stylesheetUrl'>): BrandingCspSources {
  const logo = originOf(branding.logoUrl);
  const stylesheet = originOf(branding.stylesheetUrl);
  return { img: [...new Set([...logo, ...stylesheet])], style: stylesheet, font: stylesheet };
}
