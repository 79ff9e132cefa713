import type { Command } from 'commander';
import type { Config } from '../../config/config.js';
import { createTranslator } from '../../i18n/catalog.js';
import { pagesOf } from '../../idp/pages.js';
import { currentSite, renderMail } from '../../messaging/mail-content.js';
import { TemplateError } from '../../templates/engine.js';
import { loadTemplates } from '../../templates/load.js';
import { ALL_TEMPLATES, filesOf, templateInfo } from '../../templates/registry.js';
import { cliConfig } from '../context.js';
import { CliError } from '../errors.js';
import { respond, table } from '../output.js';

// `headless-auth templates list|preview`: what a deployer can override, and how one
// renders (with TEMPLATES_DIR and LOCALE_DIR as the server reads them) on sample data.
// Neither touches the database.

function loaded(config: Config) {
  const { languages, languageCode, localeDir } = config.languages;
  const i18n = createTranslator({ languages, defaultLanguage: languageCode, localeDir });
  try {
    return { i18n, templates: loadTemplates(config, i18n).templates };
  } catch (error) {
    if (error instanceof TemplateError) throw CliError.of('config_error', error.message);
    throw error;
  }
}

export function registerTemplateCommands(program: Command): void {
  const templates = program.command('templates').description('the mail, SMS and page templates (TEMPLATES_DIR overrides them): list them, preview one');

  templates
    .command('list')
    .description('every template: its name, kind, files, and the file it is read from (an override or the default)')
    .action((_opts: unknown, command: Command) =>
      respond(command, async () => {
        const config = cliConfig();
        const { templates: engine, i18n } = loaded(config);
        const rows = ALL_TEMPLATES.map((info) => ({
          name: info.name,
          kind: info.kind,
          about: info.about,
          variables: Object.keys(info.variables),
          files: filesOf(info).map((file) => ({ name: file, source: engine.source(file, i18n.defaultLanguage) })),
        }));
        const overridden = (row: (typeof rows)[number]) => row.files.some((file) => config.templates.dir !== undefined && file.source?.startsWith(config.templates.dir));
        return {
          json: { templates: rows },
          text: table(['NAME', 'KIND', 'OVERRIDDEN', 'ABOUT'], rows.map((row) => [row.name, row.kind, overridden(row) ? 'yes' : '-', row.about])),
        };
      }),
    );

  templates
    .command('preview')
    .description('renders a template with sample data: a mail (subject and text part, or --html) or an SMS or page')
    .argument('<name>', 'as `templates list` shows it, e.g. account/email/login_code')
    .option('--locale <language>', 'the language to render in (default LANGUAGE_CODE)')
    .option('--html', "a mail's HTML part instead of its subject and text", false)
    .option('--sample <n>', 'which sample, for templates with several cases (a code or a link)', '1')
    .action((name: string, opts: { locale?: string; html: boolean; sample: string }, command: Command) =>
      respond(command, async () => {
        const info = templateInfo(name);
        if (!info) throw CliError.of('not_found', `no template named ${name}: see \`headless-auth templates list\``, 'name');
        const config = cliConfig();
        const { templates: engine, i18n } = loaded(config);
        const language = opts.locale ?? i18n.defaultLanguage;
        if (!i18n.languages.includes(language)) throw CliError.of('invalid', `--locale: ${language} is not among LANGUAGES (${i18n.languages.join(', ')})`, 'locale');
        const index = Number(opts.sample) - 1;
        const found = info.samples[index];
        if (!Number.isInteger(index) || !found) throw CliError.of('invalid', `--sample: ${name} has ${info.samples.length} sample(s)`, 'sample');
        // The site as configured (SITE_NAME, FRONTEND_URL), the rest made up.
        const sample = { ...found, current_site: currentSite(config) };
        if (info.kind === 'mail') {
          const mail = renderMail(engine, config, info.name, language, sample);
          return {
            json: { name: info.name, language, sample, ...mail },
            text: opts.html ? mail.html : `Subject: ${mail.subject}\n\n${mail.text}`,
          };
        }
        const text =
          info.kind === 'page'
            ? pagesOf({ config, templates: engine, i18n }).render(info.name.replace(/^idp\/oidc\/|\.html$/g, ''), language, sample)
            : engine.render(info.name, language, sample).trim();
        return { json: { name: info.name, language, sample, text }, text };
      }),
    );
}
