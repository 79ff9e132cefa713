/** What every template returns; the caller adds the recipient and hands it to a Mailer. */
export type MailContent = { subject: string; text: string; html: string };

/**
 * A mail body is a list of blocks. Templates describe what to say; this module alone
 * writes the text and HTML, so every value is escaped in one place and every link and
 * code lands on a line of its own in the text part (tests and users copy them from there).
 */
export type Block =
  | { paragraph: string }
  | { link: string; label: string }
  | { code: string };

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

export function renderMail(siteName: string, subject: string, blocks: Block[]): MailContent {
  const all: Block[] = [...blocks, { paragraph: `— ${siteName}` }];
  return {
    // A line break in a header value would start a new header.
    subject: `[${siteName}] ${subject}`.replace(/[\r\n]+/g, ' '),
    text: all.map(blockText).join('\n\n') + '\n',
    html:
      '<!doctype html>\n<html><head><meta charset="utf-8"></head>' +
      '<body style="font-family: sans-serif; line-height: 1.5">\n' +
      all.map(blockHtml).join('\n') +
      '\n</body></html>\n',
  };
}

function blockText(block: Block): string {
  if ('paragraph' in block) return block.paragraph;
  if ('link' in block) return block.link;
  return block.code;
}

function blockHtml(block: Block): string {
  if ('paragraph' in block) return `<p>${escapeHtml(block.paragraph)}</p>`;
  if ('link' in block) {
    return `<p><a href="${escapeHtml(block.link)}">${escapeHtml(block.label)}</a></p>`;
  }
  return (
    '<p style="font-family: monospace; font-size: 1.6em; font-weight: bold; letter-spacing: 0.1em">' +
    `${escapeHtml(block.code)}</p>`
  );
}
