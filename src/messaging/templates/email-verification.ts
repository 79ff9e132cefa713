import { renderMail, type Block, type MailContent } from './render.js';

/** At least one of `url` (a frontend link ending in the key) or `code` is needed. */
export type EmailVerificationMailInput = { siteName: string; email: string } & (
  | { url: string; code?: string }
  | { url?: string; code: string }
);

/**
 * Asks the owner of `email` to confirm it. With codes on, the reference sends only the
 * code, so a link is added only when the caller passes one.
 */
export function emailVerificationMail(input: EmailVerificationMailInput): MailContent {
  const { siteName, email, url, code } = input;
  const blocks: Block[] = [
    { paragraph: `Someone, hopefully you, gave ${email} as their email address on ${siteName}.` },
  ];
  if (code !== undefined) {
    blocks.push({ paragraph: 'To confirm that this address is yours, enter this code:' }, { code });
  }
  if (url !== undefined) {
    blocks.push(
      { paragraph: code !== undefined ? 'Or open this link:' : 'To confirm that this address is yours, open this link:' },
      { link: url, label: 'Confirm my email address' },
    );
  }
  blocks.push({ paragraph: 'If this was not you, ignore this mail; the address stays unconfirmed.' });
  return renderMail(siteName, 'Confirm your email address', blocks);
}
