import { renderMail, type Block, type MailContent } from './render.js';

/** At least one of `url` (a frontend link ending in the key) or `code` is needed. */
export type PasswordResetMailInput = { siteName: string; email: string } & (
  | { url: string; code?: string }
  | { url?: string; code: string }
);

export function passwordResetMail(input: PasswordResetMailInput): MailContent {
  const { siteName, email, url, code } = input;
  const blocks: Block[] = [
    { paragraph: `Someone, hopefully you, asked to reset the password of the ${siteName} account for ${email}.` },
  ];
  if (code !== undefined) {
    blocks.push({ paragraph: 'To choose a new password, enter this code:' }, { code });
  }
  if (url !== undefined) {
    blocks.push(
      { paragraph: code !== undefined ? 'Or open this link:' : 'To choose a new password, open this link:' },
      { link: url, label: 'Choose a new password' },
    );
  }
  blocks.push({ paragraph: 'If this was not you, ignore this mail; your password stays as it is.' });
  return renderMail(siteName, 'Reset your password', blocks);
}
