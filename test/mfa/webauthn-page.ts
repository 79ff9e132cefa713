import type { Browser, CDPSession, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.js';
import type { DatabaseKind } from '../support/databases.js';
import { freePort } from '../support/process-server.js';

// WebAuthn in real Chromium: a page the test serves on the test server's
// own origin (http://localhost:<port>, a secure context; RP id localhost)
// calls navigator.credentials and the API, with the DevTools virtual
// authenticator standing in for a security key or a phone.

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>WebAuthn test page</title></head>
<body>
<script>
function csrf() {
  const m = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/);
  return m ? decodeURIComponent(m[1]) : '';
}
window.api = async (client, method, path, body, token) => {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (client === 'browser' && method !== 'GET') headers['X-CSRFToken'] = csrf();
  if (client === 'app' && token) headers['X-Session-Token'] = token;
  const r = await fetch('/_service/' + client + '/v1' + path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
};
window.create = async (options) => {
  const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options.publicKey) });
  return credential.toJSON();
};
window.assertion = async (options, override) => {
  const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON({ ...options.publicKey, ...override }) });
  return credential.toJSON();
};
</script>
</body></html>`;

export const PAGE_PATH = '/webauthn-test';

/**
 * A test server whose WebAuthn settings name its own origin. The port must
 * be known before the server starts: a free one is picked, and another if a
 * neighbour took it in between.
 */
export async function startWebAuthnServer(kind: DatabaseKind, env: Record<string, string>): Promise<{ server: TestServer; origin: string }> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    try {
      const server = await startTestServer(kind, { MFA_WEBAUTHN_RP_ID: 'localhost', MFA_WEBAUTHN_ORIGINS: origin, ...env }, { port });
      return { server, origin };
    } catch (error) {
      if ((error as { code?: string }).code !== 'EADDRINUSE' || attempt >= 5) throw error;
    }
  }
}

export interface WebAuthnPage {
  page: Page;
  cdp: CDPSession;
  authenticatorId: string;
  /** An API call made by the page, as the SPA would make it. */
  call(client: 'browser' | 'app', method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }>;
  create(options: unknown): Promise<Record<string, any>>;
  assertion(options: unknown, override?: Record<string, unknown>): Promise<Record<string, any>>;
  /** Replaces the virtual authenticator with a new one, as if the user picked up another device. */
  newDevice(): Promise<void>;
  close(): Promise<void>;
}

const AUTHENTICATOR = { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true } as const;

/** A fresh browser context on the page, with a virtual authenticator that verifies its user (PIN or biometrics) and is always touched. */
export async function openWebAuthnPage(browser: Browser, origin: string): Promise<WebAuthnPage> {
  const context = await browser.newContext();
  const page = await context.newPage();
  // Only the page is the test's own; every API call reaches the server.
  await page.route(`${origin}${PAGE_PATH}`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: PAGE }));
  await page.goto(`${origin}${PAGE_PATH}`);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', { options: AUTHENTICATOR });
  const web: WebAuthnPage = {
    page,
    cdp,
    authenticatorId,
    call: (client, method, path, body, token) =>
      page.evaluate(([c, m, p, b, t]) => (window as any).api(c, m, p, b ?? undefined, t ?? undefined), [client, method, path, body ?? null, token ?? null] as const),
    create: (options) => page.evaluate((o) => (window as any).create(o), options),
    assertion: (options, override = {}) => page.evaluate(([o, v]) => (window as any).assertion(o, v), [options, override] as const),
    async newDevice() {
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: web.authenticatorId });
      web.authenticatorId = (await cdp.send('WebAuthn.addVirtualAuthenticator', { options: AUTHENTICATOR })).authenticatorId;
    },
    close: () => context.close(),
  };
  // As an SPA starts: GET /config gives the browser its CSRF token.
  await web.call('browser', 'GET', '/config');
  return web;
}
