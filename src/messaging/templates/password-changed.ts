import { renderMail, type MailContent } from './render.js';

/** Security notice after a password change or reset, so an account takeover does not go unnoticed. */
export function passwordChangedMail(input: { siteName: string; email: string }): MailContent {
  const { siteName, email } = input;
  return renderMail(siteName, 'Your password was changed', [
    { paragraph: `The password of your ${siteName} account (${email}) has just been changed.` },
    { paragraph: 'If you did this, there is nothing more to do.' },
    {
      paragraph:
        'If you did not, someone else may have access to your account: reset your password ' +
        'right away and contact us.',
    },
  ]);
}
