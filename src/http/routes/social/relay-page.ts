import { createHash } from 'node:crypto';

// The page a provider that answers in the URL fragment (Telegram) sends the
// browser to: a server never sees a fragment, so this page's only script
// posts the fragment's fields back to its own URL (query and all), where the
// login completes. The script is allowed by its hash and nothing else runs;
// the page can neither be framed nor leak its URL (which names the flow) as
// a referrer.

const SCRIPT = `(function () {
  var form = document.createElement('form');
  form.method = 'POST';
  form.action = window.location.href.split('#')[0];
  new URLSearchParams(window.location.hash.slice(1)).forEach(function (value, name) {
    var field = document.createElement('input');
    field.type = 'hidden';
    field.name = name;
    field.value = value;
    form.appendChild(field);
  });
  document.body.appendChild(form);
  form.submit();
})();`;

export const RELAY_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Signing in</title></head>
<body><noscript>Signing in needs JavaScript.</noscript><script>${SCRIPT}</script></body></html>
`;

export const RELAY_PAGE_HEADERS = {
  'content-security-policy': `default-src 'none'; script-src 'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'; base-uri 'none'; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};
