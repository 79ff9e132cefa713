import { renderMail, type Block, type MailContent } from './render.js';

/**
 * Sent instead of a verification mail when someone signs up with an address that already
 * has an account: the sign-up response looks the same either way (no enumeration), and
 * only the owner of the address learns the account exists.
 */
export function accountAlreadyExistsMail(input: {
  siteName: string;
  email: string;
  passwordResetUrl?: string;
}): MailContent {
  const { siteName, email, passwordResetUrl } = input;
  const blocks: Block[] = [
    {
      paragraph:
        `Someone, hopefully you, tried to sign up on ${siteName} with ${email}. ` +
        'An account with this address already exists, so no new account was created.',
    },
  ];
  if (passwordResetUrl !== undefined) {
    blocks.push(
      { paragraph: 'If it was you and you have forgotten your password, you can reset it here:' },
      { link: passwordResetUrl, label: 'Reset my password' },
    );
  } else {
    blocks.push({ paragraph: 'If it was you and you have forgotten your password, you can reset it from the sign-in page.' });
  }
  blocks.push({ paragraph: 'If this was not you, ignore this mail; your account has not changed.' });
  return renderMail(siteName, 'You already have an account', blocks);
}
