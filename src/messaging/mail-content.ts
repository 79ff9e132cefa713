import type { Config } from '../config/config.js';
import type { Templates } from '../templates/engine.js';

/** What a mail's templates render to; the caller adds the recipient and hands it to a Mailer. */
export type MailContent = { subject: string; text: string; html: string };

/** `current_site` as the reference gives it to templates: the site's name and the host people know it by. */
export function currentSite(config: Config): { name: string; domain: string } {
  return { name: config.siteName, domain: new URL(config.frontendUrls.account_signup).host };
}

/**
 * Renders `<prefix>_subject.txt`, `_message.txt` and `_message.html`. As the reference
 * does, the subject's lines are joined and it gets ACCOUNT_EMAIL_SUBJECT_PREFIX (unset:
 * `[SITE_NAME] `); the text part's runs of blank lines become one, so templates may
 * space their blocks freely.
 */
export function renderMail(templates: Templates, config: Config, prefix: string, language: string, context: Record<string, unknown>): MailContent {
  const subjectPrefix = config.templates.emailSubjectPrefix ?? `[${config.siteName}] `;
  // A line break in a header value would start a new header.
  const subject = templates.render(`${prefix}_subject.txt`, language, context).replace(/\s*[\r\n]+\s*/g, ' ').trim();
  const text = templates
    .render(`${prefix}_message.txt`, language, context)
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const html = templates.render(`${prefix}_message.html`, language, context).trim();
  return { subject: `${subjectPrefix}${subject}`.replace(/[\r\n]+/g, ' '), text: `${text}\n`, html: `${html}\n` };
}
