import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply, RouteOptions } from 'fastify';
import type { Config } from '../../../config/config.js';
import type { Deps } from '../../../flows/context.js';
import { adminConsoleSource } from '../../../audit/recorder.js';
import { hasAdminRole } from '../../../flows/admin/users.js';
import { requireRecentAuthentication } from '../../../flows/auth/reauthentication.js';
import { registerClientAuth, userAgentOf } from '../../client-auth.js';
import { mountEndpoints } from '../../endpoint.js';
import { docsPolicy } from '../../security-headers.js';
import { errorsFor } from '../../messages.js';
import { answerLanguage } from '../../answer-language.js';
import type { Translator } from '../../../i18n/catalog.js';
import { refuse, WRITE_METHODS } from '../caller.js';
import { adminEndpoints } from '../routes/index.js';
import { answerWrongMethods } from '../wrong-method.js';
import { sealSessionCookie } from './sealed-session-cookie.js';
import { consoleBrandSources, registerConsoleBrand } from './brand.js';
import { consoleSignInEndpoints } from './sign-in-endpoints.js';
import { consoleAccess } from '../../../flows/admin/console-enrolment.js';

// The admin console: a page for people at /console on the admin listener.
//
// Sign-in is our own browser login, mounted a second time on this listener
// (/_service/browser/v1: password or passkey login, second factor by code or
// key, reauthentication, logout, the account's own second factors, the
// setup link: sign-in-endpoints.ts), so the page and the API it calls share one origin: no CORS, no
// cookie crossing between the public and the admin listeners. Its cookies
// have names of their own (admin_sessionid, admin_csrftoken), so that a
// browser holding a public session on the same host keeps the two apart;
// sessions are ordinary sessions in the one sessions table (listed and
// revoked like any other), but the cookie holds the key sealed for the
// console (sealed-session-cookie.ts), so that a key of one listener is
// never a session on the other. Signup and "trust this browser" are off here.
//
// The console's data comes from the admin routes of the API, mounted at
// /console/api/v1 behind the session instead of a key: the signed-in user
// must have the admin role (read on every request), must have logged in
// with a second factor (one who has none yet gets only a 403 that sends them
// to enrol one: console-enrolment.ts), and changes need a recent reauthentication
// (ACCOUNT_REAUTHENTICATION_TIMEOUT). Each change is an audit event with
// `actor: "admin_console"` and the administrator's id as `actor_id`.

export const CONSOLE_COOKIE = 'admin_sessionid';
export const CONSOLE_CSRF_COOKIE = 'admin_csrftoken';

function consoleConfig(config: Config): Config {
  return {
    ...config,
    session: { ...config.session, cookieName: CONSOLE_COOKIE, csrfCookieName: CONSOLE_CSRF_COOKIE },
    account: { ...config.account, signupOpen: false, loginByCode: { ...config.account.loginByCode, enabled: false } },
    mfa: { ...config.mfa, trust: { ...config.mfa.trust, enabled: false } },
  };
}

/** The routes of a scope stay out of the admin API's OpenAPI document. */
function hideFromDocs(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route: RouteOptions) => {
    route.schema = { ...(route.schema ?? {}), hide: true };
  });
}

const require = createRequire(import.meta.url);
// console/ at the top of the checkout, as many folders up from src/http/admin/console as from dist/http/admin/console.
const ASSETS = new URL('../../../../console/', import.meta.url);

const TYPES: Record<string, string> = { '.js': 'application/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };

/**
 * The page's files: every script, stylesheet and picture under console/ by
 * its path there (screens/users.js), and under vendor/ preact, its hooks,
 * htm, the ICU formatter and uPlot from node_modules (served here, no CDN).
 */
function loadAssets(): Map<string, { type: string; body: string }> {
  // Read from the package folders: their exports do not name these files.
  const vendor = (file: string) => {
    const [name, ...rest] = file.split('/');
    const entry = require.resolve(name!);
    const root = entry.slice(0, entry.lastIndexOf(`/node_modules/${name}/`) + `/node_modules/${name}/`.length);
    return readFileSync(root + rest.join('/'), 'utf8').replace(/\/\/# sourceMappingURL=.*$/m, '');
  };
  const js = TYPES['.js']!;
  const assets = new Map<string, { type: string; body: string }>();
  const root = fileURLToPath(ASSETS);
  for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const type = TYPES[extname(file)];
    if (type) assets.set(file.split(sep).join('/'), { type, body: readFileSync(join(root, file), 'utf8') });
  }
  assets.set('vendor/preact.js', { type: js, body: vendor('preact/dist/preact.module.js') });
  // Its one import names the package; the browser loads it from beside it instead.
  assets.set('vendor/hooks.js', { type: js, body: vendor('preact/hooks/dist/hooks.module.js').replace(/from\s*"preact"/, 'from"./preact.js"') });
  assets.set('vendor/htm.js', { type: js, body: vendor('htm/dist/htm.module.js') });
  // The catalogue's messages are ICU: the same formatter as the server's, as one self-contained module.
  assets.set('vendor/intl-messageformat.js', { type: js, body: vendor('intl-messageformat/intl-messageformat.iife.js') });
  // The dashboard's charts.
  assets.set('vendor/uplot.js', { type: js, body: vendor('uplot/dist/uPlot.esm.js') });
  assets.set('vendor/uplot.css', { type: TYPES['.css']!, body: vendor('uplot/dist/uPlot.min.css') });
  return assets;
}

export async function registerConsole(app: FastifyInstance, deps: Deps): Promise<void> {
  const consoleDeps: Deps = { ...deps, config: consoleConfig(deps.config) };
  const assets = loadAssets();
  // Beside its own origin, only the origins of an external logo or stylesheet.
  const pagePolicy = docsPolicy(deps.config.httpSecurity, consoleBrandSources(deps.config));
  const pages = consolePages(deps.i18n, ours('index.html'));

  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console'));
  app.get('/console', { schema: { hide: true }, onRequest: pagePolicy }, async (request, reply) => reply.type('text/html; charset=utf-8').send(pages.get(answerLanguage(deps.i18n, request, reply))));
  // The page's words in the browser's language (locales/<language>/console.json), formatted by the page itself.
  app.get('/console/messages', { schema: { hide: true } }, async (request, reply) => {
    const language = answerLanguage(deps.i18n, request, reply);
    return reply.send({ status: 200, data: { language, messages: deps.i18n.namespace(language, 'console') } });
  });
  app.get<{ Params: { '*': string } }>('/console/assets/*', { schema: { hide: true }, onRequest: pagePolicy }, async (request, reply: FastifyReply) => {
    const asset = assets.get(request.params['*']);
    if (!asset) return refuse(deps.i18n, request, reply, 404, 'not_found');
    return reply.type(asset.type).send(asset.body);
  });
  registerConsoleBrand(app, deps.config);

  // Sign-in: the browser login, on this origin.
  await app.register(
    async (scope) => {
      hideFromDocs(scope);
      sealSessionCookie(scope, consoleDeps, CONSOLE_COOKIE);
      registerClientAuth(scope, consoleDeps, 'browser');
      await mountEndpoints(scope, consoleDeps, 'browser', consoleSignInEndpoints);
    },
    { prefix: '/_service/browser/v1' },
  );

  // The admin routes, behind the signed-in administrator.
  await app.register(
    async (scope) => {
      hideFromDocs(scope);
      sealSessionCookie(scope, consoleDeps, CONSOLE_COOKIE);
      registerClientAuth(scope, consoleDeps, 'browser');
      scope.decorateRequest('admin', null);
      scope.addHook('onRequest', async (request, reply) => {
        const { user, session } = request.auth;
        if (!user || !session || session.userId !== user.id) return refuse(deps.i18n, request, reply, 401, 'not_authenticated');
        if (!(await hasAdminRole(consoleDeps, user.id))) return refuse(deps.i18n, request, reply, 403, 'admin_required');
        // The role asks for a second factor at login (a passkey is one). Without one
        // yet, the session may enrol one (at /_service/browser/v1) and nothing here.
        const access = await consoleAccess(consoleDeps, session, user.id);
        if (access === 'enrol') {
          const types = consoleDeps.config.mfa.supportedTypes.filter((type) => type !== 'recovery_codes');
          return reply.code(403).send({ ...errorsFor(deps.i18n, request, reply, 403, [{ code: 'mfa_enrollment_required' }]), data: { flows: [{ id: 'mfa_enrollment', types }] } });
        }
        if (access === 'second_factor') return refuse(deps.i18n, request, reply, 403, 'mfa_required');
        const now = consoleDeps.clock.now();
        if (WRITE_METHODS.has(request.method)) {
          const needed = await requireRecentAuthentication(consoleDeps, session, user, now, { strict: true });
          if (needed?.kind === 'reauthentication_required') {
            const flows = [{ id: 'reauthenticate' }, ...(needed.mfaTypes.length > 0 ? [{ id: 'mfa_reauthenticate', types: needed.mfaTypes }] : [])];
            return reply.code(401).send({ ...errorsFor(deps.i18n, request, reply, 401, [{ code: 'reauthentication_required' }]), data: { flows } });
          }
        }
        const client = { ip: request.ip, userAgent: userAgentOf(request) };
        request.admin = { source: (at) => adminConsoleSource(client, at, user.id), userId: user.id, sessionId: session.id };
      });
      scope.get('/me', async (request, reply) => {
        const { user, session } = request.auth;
        return reply.send({ status: 200, data: { id: user!.id, display: user!.username || user!.email || `user ${user!.id}`, email: user!.email, methods: session!.methods } });
      });
      answerWrongMethods(scope, deps.i18n);
      await mountEndpoints(scope, consoleDeps, null, adminEndpoints);
    },
    { prefix: '/console/api/v1' },
  );
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** index.html in each offered language: its lang and the words it shows before the script runs. */
function consolePages(i18n: Translator, template: string): { get(language: string): string } {
  const byLanguage = new Map(
    i18n.languages.map((language) => [language, template.replace(/\{\{([\w.]+)\}\}/g, (_, key: string) => escapeHtml(key === 'language' ? language : i18n.t(language, `console.${key}`)))]),
  );
  return { get: (language) => byLanguage.get(language) ?? byLanguage.get(i18n.defaultLanguage)! };
}

function ours(name: string): string {
  return readFileSync(new URL(name, ASSETS), 'utf8');
}
