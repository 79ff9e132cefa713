import { createHash } from 'node:crypto';

// The few pages the OpenID provider renders itself (consent, device code
// entry and confirmation, logout, errors): plain HTML forms, no script, one
// inline stylesheet allowed by its hash and nothing else.
//
// No form-action directive: browsers apply it to the redirect that follows a
// form post, and the consent form's answer is a redirect to the client.

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}' +
  'h1{font-size:1.4rem;font-weight:500}ul{padding-left:1.2rem}code{font-size:1.6rem;letter-spacing:.1em}' +
  'button,input[type=text]{font-size:1rem;padding:.5rem .8rem;margin:.3rem .3rem .3rem 0}' +
  'input[type=text]{text-transform:uppercase;width:12rem}.error{color:#b00020}';

// script-src 'none' named on its own: oidc-provider adds the hash of its
// form_post script to it (response_mode=form_post), and so does provider.ts
// for the one self-submitting logout form.
export const PAGE_CSP = `default-src 'none'; script-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'`;

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A whole page; `body` is already escaped HTML. */
export function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>`;
}

const SCOPE_TEXT: Record<string, string> = {
  openid: 'Know who you are (your user ID)',
  email: 'View your email address',
  profile: 'View your basic profile information',
  phone: 'View your phone number',
  offline_access: 'Stay signed in (keep access while you are away)',
};

export function consentPage(input: { siteName: string; clientName: string; scopes: string[]; action: string; csrf: string }): string {
  const items = input.scopes.map((s) => `<li>${escapeHtml(SCOPE_TEXT[s] ?? s)}</li>`).join('');
  return page(
    `${input.clientName} wants to access your ${input.siteName} account`,
    `<p>It asks to:</p>
<ul>${items}</ul>
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

export function errorPage(title: string, message: string): string {
  return page(title, `<p class="error">${escapeHtml(message)}</p>`);
}

/** Sends a page as the provider's answer (a Koa context). */
export function htmlBody(ctx: any, html: string): void {
  ctx.type = 'html';
  ctx.body = html;
}
