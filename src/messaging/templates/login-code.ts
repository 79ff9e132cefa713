import { renderMail, type MailContent } from './render.js';

export function loginCodeMail(input: { siteName: string; email: string; code: string }): MailContent {
  const { siteName, email, code } = input;
  return renderMail(siteName, 'Your sign-in code', [
    { paragraph: `Someone, hopefully you, asked to sign in to ${siteName} as ${email}. Enter this code to sign in:` },
    { code },
    { paragraph: 'If this was not you, ignore this mail; without the code no one can sign in this way.' },
  ]);
}
