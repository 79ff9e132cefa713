import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_TEMPLATES, templateFiles, type Templates } from './engine.js';
import { ALL_TEMPLATES, filesOf, type TemplateKind } from './registry.js';

/**
 * Run once at start: compiles every template (defaults and overrides, each language
 * with a folder of its own) and renders each with its samples in every language, so a
 * broken override, one that prints a variable nobody gives, or a catalogue message
 * missing a value stops the start instead of failing a mail later. Returns the override
 * files that match no template (a misspelt name is otherwise silently ignored).
 */
export function checkTemplates(
  templates: Templates,
  opts: { languages: readonly string[]; overrideDir?: string; extra: Record<TemplateKind, Record<string, unknown>> },
): string[] {
  const { languages, overrideDir } = opts;
  const known = new Set([...templateFiles(BUILTIN_TEMPLATES)]);
  const unknown: string[] = [];
  if (overrideDir !== undefined) {
    const languageFolders = new Set(languages.filter((language) => existsSync(join(overrideDir, language))));
    for (const file of templateFiles(overrideDir, languageFolders)) {
      for (const language of languages) templates.compile(file, language);
      if (!known.has(file)) unknown.push(file);
    }
    for (const language of languageFolders) {
      for (const file of templateFiles(join(overrideDir, language))) {
        templates.compile(file, language);
        if (!known.has(file)) unknown.push(join(language, file));
      }
    }
  }
  // The default language, and each with templates of its own: the catalogues' parity is
  // their own test's, and rendering all in every language would double the start.
  const rendered = [languages[0]!, ...languages.slice(1).filter((language) => overrideDir !== undefined && existsSync(join(overrideDir, language)))];
  for (const info of ALL_TEMPLATES) {
    for (const file of filesOf(info)) {
      for (const language of rendered) {
        for (const sample of info.samples) templates.render(file, language, { ...opts.extra[info.kind], ...sample });
      }
    }
  }
  return unknown;
}
