import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in for a single-page app's host: serves one page and passes
// /_service/* (and, for social login, /accounts/*) through to the API, so
// page and API share an origin as browser clients require (cookies + CSRF),
// like a reverse proxy would: it says which host the browser asked for in
// X-Forwarded-Host, for a server that trusts one proxy.

/** The SPA's reading of the csrftoken cookie, for pages of their own (social.test.ts). */
export const CSRF_SCRIPT = `function csrf() {
  const m = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/);
  return m ? decodeURIComponent(m[1]) : '';
}`;

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>SPA</title></head>
<body>
<input id="email" type="email"><input id="password" type="password">
<button id="signup">Sign up</button><button id="login">Log in</button>
<button id="whoami">Who am I</button><button id="logout">Log out</button>
<pre id="out"></pre>
<script>
const base = '/_service/browser/v1';
${CSRF_SCRIPT}
async function call(method, path, body) {
  const headers = { 'X-CSRFToken': csrf() };
  if (body) headers['Content-Type'] = 'application/json';
  const r = await fetch(base + path, { method, headers, credentials: 'same-origin', body: body ? JSON.stringify(body) : undefined });
  const json = await r.json();
  document.getElementById('out').textContent = JSON.stringify({ http: r.status, body: json });
}
const creds = () => ({ email: document.getElementById('email').value, password: document.getElementById('password').value });
document.getElementById('signup').onclick = () => call('POST', '/auth/signup', creds());
document.getElementById('login').onclick = () => call('POST', '/auth/login', creds());
document.getElementById('whoami').onclick = () => call('GET', '/auth/session');
document.getElementById('logout').onclick = () => call('DELETE', '/auth/session');
fetch(base + '/config').then(() => document.body.dataset.ready = 'yes');
</script>
</body></html>`;

export async function startSpaHost(apiBaseUrl: string, options: { page?: string; passThrough?: string[] } = {}): Promise<{ url: string; close(): Promise<void> }> {
  const api = new URL(apiBaseUrl);
  const passThrough = options.passThrough ?? ['/_service/'];
  const server = http.createServer((req, res) => {
    if (!passThrough.some((prefix) => req.url?.startsWith(prefix))) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(options.page ?? PAGE);
      return;
    }
    const headers = { ...req.headers, host: api.host, 'x-forwarded-host': req.headers.host, 'x-forwarded-proto': 'http' };
    const upstream = http.request(
      { host: api.hostname, port: api.port, method: req.method, path: req.url, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => (res.writeHead(502), res.end()));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
