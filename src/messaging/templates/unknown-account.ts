import { renderMail, type Block, type MailContent } from './render.js';

/**
 * Sent when a password reset or a sign-in code is requested for an address with no
 * account: the response looks the same as for a known address (no enumeration), and the
 * owner of the address learns why no code or link arrived.
 */
export function unknownAccountMail(input: { siteName: string; email: string; signupUrl?: string }): MailContent {
  const { siteName, email, signupUrl } = input;
  const blocks: Block[] = [
    {
      paragraph:
        `Someone, hopefully you, asked for a password reset or a sign-in code for ${email} on ${siteName}, ` +
        'but there is no account with this address.',
    },
    { paragraph: 'If it was you, you may have signed up with a different address.' },
  ];
  if (signupUrl !== undefined) {
    blocks.push(
      { paragraph: 'If you have no account yet, you can create one here:' },
      { link: signupUrl, label: 'Create an account' },
    );
  }
  blocks.push({ paragraph: 'If this was not you, ignore this mail.' });
  return renderMail(siteName, 'No account with this address', blocks);
}
