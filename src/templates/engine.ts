import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import nunjucks from 'nunjucks';
import { ConfigError } from '../config/env.js';
import type { MessageValue } from '../i18n/message.js';
import type { Translator } from '../i18n/catalog.js';

/**
 * Every mail, SMS and server page is a Nunjucks template (Jinja's syntax, close to
 * Django's, so a Django project's overrides port over). The defaults ship in `templates/`;
 * a deployer's TEMPLATES_DIR, laid out the same way, overrides any file by name, and
 * `TEMPLATES_DIR/<language>/<name>` overrides it for one language only.
 */
export const BUILTIN_TEMPLATES = fileURLToPath(new URL('../../templates/', import.meta.url));

/** A template that does not compile or render; its message names the file and line. */
export class TemplateError extends ConfigError {
  override name = 'TemplateError';
}

export interface Templates {
  /** Renders `file` (`account/email/login_code_message.txt`) in `language`, whose strings `_()` looks up. */
  render(file: string, language: string, context: Record<string, unknown>): string;
  /** Compiles `file` for `language` (kept compiled), or throws a TemplateError naming file and line. */
  compile(file: string, language: string): void;
  /** The file a template is read from for `language`: the override when there is one. */
  source(file: string, language: string): string | undefined;
}

export interface TemplateOptions {
  translator: Translator;
  /** TEMPLATES_DIR. */
  overrideDir?: string;
  /** Values every template sees (branding). */
  globals: Record<string, unknown>;
}

/** The two environments of one search path: HTML autoescaped, text as written. */
interface Pair {
  html: nunjucks.Environment;
  text: nunjucks.Environment;
  paths: string[];
}

/**
 * Builds the engine. Templates compile when first asked for and stay compiled
 * (nunjucks keeps them, nothing watches the disk); `checkTemplates` asks for each one
 * at start, so none compiles during a request.
 */
export function createTemplates(opts: TemplateOptions): Templates {
  const { translator, overrideDir, globals } = opts;
  if (overrideDir !== undefined && !(existsSync(overrideDir) && statSync(overrideDir).isDirectory())) {
    throw new TemplateError(`TEMPLATES_DIR: ${overrideDir} is not a folder`);
  }
  const common = overrideDir === undefined ? [BUILTIN_TEMPLATES] : [overrideDir, BUILTIN_TEMPLATES];
  const pairOf = (paths: string[]): Pair => ({ html: environment(paths, true), text: environment(paths, false), paths });
  const shared = pairOf(common);
  const byLanguage = new Map<string, Pair>();
  for (const language of translator.languages) {
    const own = overrideDir === undefined ? undefined : join(overrideDir, language);
    if (own !== undefined && existsSync(own) && statSync(own).isDirectory()) byLanguage.set(language, pairOf([own, ...common]));
  }

  function environment(paths: string[], autoescape: boolean): nunjucks.Environment {
    const loader = new nunjucks.FileSystemLoader(paths, { noCache: false, watch: false });
    // throwOnUndefined: a variable the template prints but nobody gives is an error, not an empty string.
    const env = new nunjucks.Environment(loader, { autoescape, throwOnUndefined: true, trimBlocks: true, lstripBlocks: true });
    for (const [name, value] of Object.entries(globals)) env.addGlobal(name, value);
    // `_("mail.login_code.subject", { site: current_site.name })`: the catalogue's message in
    // the language being rendered (a context variable, so one compiled template serves all).
    const translate = function (this: { ctx: Record<string, unknown> }, id: string, values?: Record<string, unknown>) {
      // Template values arrive untyped; the catalogue formats strings and numbers.
      return translator.t(String(this.ctx['language']), id, values as Record<string, MessageValue> | undefined);
    };
    env.addGlobal('_', translate);
    env.addGlobal('t', translate);
    return env;
  }

  const pairFor = (language: string) => byLanguage.get(language) ?? shared;
  return {
    render(file, language, context) {
      const pair = pairFor(language);
      const env = file.endsWith('.html') ? pair.html : pair.text;
      try {
        return env.getTemplate(file, true).render({ ...context, language });
      } catch (error) {
        throw asTemplateError(error, file, pair.paths);
      }
    },
    compile(file, language) {
      const pair = pairFor(language);
      try {
        (file.endsWith('.html') ? pair.html : pair.text).getTemplate(file, true);
      } catch (error) {
        throw asTemplateError(error, file, pair.paths);
      }
    },
    source: (file, language) => pairFor(language).paths.map((dir) => join(dir, file)).find((path) => existsSync(path)),
  };
}

/** Nunjucks nests "(file) [Line n, Column m]" once per template it passed through; the innermost is the one at fault. */
export function asTemplateError(error: unknown, file: string, paths: string[]): TemplateError {
  const message = error instanceof Error ? error.message : String(error);
  const places = [...message.matchAll(/\(([^()\n]+)\) \[Line (\d+), Column (\d+)\]/g)];
  const last = places.at(-1);
  const reason = message.split('\n').map((line) => line.trim()).filter(Boolean).at(-1) ?? message;
  let where = last ? `${last[1]}:${last[2]}:${last[3]}` : (paths.map((dir) => join(dir, file)).find((path) => existsSync(path)) ?? file);
  // A block left open is found at the end of the file, which nunjucks gives no line for.
  if (!last && /end of file/.test(reason) && existsSync(where)) where = `${where}:${readFileSync(where, 'utf8').trimEnd().split('\n').length}`;
  return new TemplateError(`template ${where}: ${reason.replace(/^(Template render error|Error): /, '')}`);
}

/** Every template file under `dir`, as names relative to it (language folders left out). */
export function templateFiles(dir: string, skip: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (folder === dir && skip.has(entry.name)) continue;
        walk(path);
      } else if (/\.(txt|html)$/.test(entry.name)) out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}
