import type { Config } from '../config/config.js';
import type { Translator } from '../i18n/catalog.js';
import { checkTemplates } from './check.js';
import { createTemplates, type Templates } from './engine.js';

/** What templates see as `branding` (BRANDING_*), in the snake case of template variables. */
export function brandingGlobals(config: Config): Record<string, unknown> {
  const { logoUrl, primaryColor, primaryTextColor, stylesheetUrl } = config.branding;
  return { logo_url: logoUrl ?? '', primary_color: primaryColor, primary_text_color: primaryTextColor, stylesheet_url: stylesheetUrl ?? '' };
}

/**
 * The engine over templates/ and TEMPLATES_DIR, every template compiled and rendered
 * with its samples: a TemplateError (a ConfigError naming file and line) stops the start.
 * `unknown`: override files that match no template, for a warning.
 */
export function loadTemplates(config: Config, translator: Translator): { templates: Templates; unknown: string[] } {
  const overrideDir = config.templates.dir;
  const templates = createTemplates({ translator, overrideDir, globals: { branding: brandingGlobals(config) } });
  const unknown = checkTemplates(templates, {
    languages: translator.languages,
    overrideDir,
    extra: { mail: {}, sms: {}, page: { page_style: '', stylesheet_url: config.branding.stylesheetUrl ?? '' } },
  });
  return { templates, unknown };
}
