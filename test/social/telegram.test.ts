import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/server.js';
import { readyClient, uniqueEmail } from '../support/accounts.js';
import { navigate, providersEnv, startRedirect } from '../support/social.js';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import type { ApiClient } from '../support/client.js';

// Telegram's login through the redirect flow: the browser goes to
// Telegram's login page for the bot, comes back to our relay page with the
// signed result in the URL fragment, and the page posts it to us. The
// result counts only with the hash Telegram computes (HMAC-SHA256 keyed
// with SHA-256 of the bot's token) and a recent auth_date. Telegram's side
// is played by signing its documented fields here, with the bot's token.

const BOT_ID = '5555555555';
const BOT_TOKEN = `${BOT_ID}:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw`;
const CALLBACK_URL = 'http://localhost:3000/account/provider/callback';

let server: TestServer;
before(async () => {
  server = await startTestServer('sqlite', providersEnv({ telegram: { APP: { client_id: BOT_ID, secret: BOT_TOKEN } } }));
});
after(() => server.close());

let nextId = 100_000_001;

/** What Telegram sends back: the user's fields and auth_date, signed with the bot's token as its docs say. */
function telegramResult(fields: Record<string, string | number>, token = BOT_TOKEN): Record<string, string | number> {
  const checkString = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const hash = createHmac('sha256', createHash('sha256').update(token).digest()).update(checkString).digest('hex');
  return { ...fields, hash };
}

function user(): Record<string, string | number> {
  const id = nextId++;
  return { id, first_name: 'Pavel', last_name: 'Durov', username: `durov${id}`, photo_url: 'https://t.me/i/userpic/320/durov.jpg', auth_date: Math.floor(server.clock.now() / 1000) };
}

const encode = (result: unknown) => Buffer.from(JSON.stringify(result)).toString('base64');

/** Starts the flow; answers Telegram's login URL and the return_to it will send the browser to. */
async function start(browser: ApiClient): Promise<{ telegram: URL; returnTo: string }> {
  const hop = await startRedirect(server, browser, { provider: 'telegram', callback_url: CALLBACK_URL });
  assert.equal(hop.status, 302);
  const telegram = new URL(hop.location!);
  return { telegram, returnTo: telegram.searchParams.get('return_to')! };
}

/** What the relay page posts: the fragment's tgAuthResult, to return_to. */
const post = (browser: ApiClient, returnTo: string, tgAuthResult: string) => navigate(browser, returnTo, { form: { tgAuthResult } });

it('sends the browser to Telegram\'s login for the bot, and serves the relay page under a strict policy', async () => {
  const browser = await readyClient(server, 'browser');
  const { telegram, returnTo } = await start(browser);
  assert.equal(telegram.origin + telegram.pathname, 'https://oauth.telegram.org/auth');
  assert.deepEqual(Object.fromEntries(telegram.searchParams), {
    origin: `${server.baseUrl}/`,
    bot_id: BOT_ID,
    request_access: 'write',
    embed: '0',
    return_to: returnTo,
  });
  assert.match(returnTo, new RegExp(`^${server.baseUrl}/accounts/telegram/login/callback/\\?state=[\\w-]+$`));

  const page = await fetch(returnTo);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type')!, /^text\/html/);
  const html = await page.text();
  const script = /<script>([\s\S]*)<\/script>/.exec(html)![1]!;
  const policy = page.headers.get('content-security-policy')!;
  assert.ok(policy.includes(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`), policy);
  assert.ok(policy.includes("default-src 'none'") && policy.includes("frame-ancestors 'none'"), policy);
  assert.equal(page.headers.get('referrer-policy'), 'no-referrer');

  // Its words are a template's, in the browser's language; the script stays the one the policy allows.
  const german = await (await fetch(returnTo, { headers: { 'accept-language': 'de-DE,de;q=0.9' } })).text();
  assert.match(german, /<html lang="de">/);
  assert.match(german, /<title>Anmeldung bei [^<]+<\/title>/);
  assert.equal(/<script>([\s\S]*)<\/script>/.exec(german)![1], script);
});

it('logs in with a result Telegram signed; extra_data is the result without hash and auth_date', async () => {
  const browser = await readyClient(server, 'browser');
  const { returnTo } = await start(browser);
  const fields = user();
  assert.equal((await post(browser, returnTo, encode(telegramResult(fields)))).location, CALLBACK_URL);
  // Telegram gives no address: the signup asks for one.
  const done = await browser.post('/auth/provider/signup', { email: uniqueEmail('tg') });
  assert.equal(done.status, 200, JSON.stringify(done.body));
  assert.deepEqual(done.body.data.methods.map((m: any) => [m.provider, m.uid]), [['telegram', String(fields.id)]]);
  const accounts = (await browser.get('/account/providers')).body.data;
  assert.deepEqual(accounts.map((a: any) => [a.provider.id, a.provider.name, a.display, a.provider.client_id]), [['telegram', 'Telegram', fields.username, undefined]]);
  const row = await server.app.deps.db.selectFrom('social_accounts').select('extra_data').where('provider', '=', 'telegram').where('uid', '=', String(fields.id)).executeTakeFirstOrThrow();
  const { auth_date: _date, ...profile } = fields;
  assert.deepEqual(typeof row.extra_data === 'string' ? JSON.parse(row.extra_data) : row.extra_data, profile);
});

it('refuses a tampered result, one signed with another bot\'s token, and a malformed one', async () => {
  const tampered = { ...telegramResult(user()), username: 'someone_else' };
  const otherBot = telegramResult(user(), '6666666666:AAAnotherBotsTokenAAAAAAAAAAAAAAAAAA');
  for (const result of [encode(tampered), encode(otherBot), 'not base64 JSON!', encode(['a list'])]) {
    const browser = await readyClient(server, 'browser');
    const { returnTo } = await start(browser);
    assert.equal((await post(browser, returnTo, result)).location, `${CALLBACK_URL}?error=unknown&error_process=login`, result);
    assert.equal((await browser.get('/auth/session')).status, 401);
  }
});

it('refuses a result whose auth_date is older than 30 seconds', async () => {
  const browser = await readyClient(server, 'browser');
  const { returnTo } = await start(browser);
  const result = encode(telegramResult(user()));
  server.clock.advance(31_000);
  assert.equal((await post(browser, returnTo, result)).location, `${CALLBACK_URL}?error=unknown&error_process=login`);
  assert.equal((await browser.get('/auth/session')).status, 401);
});

it('refuses a result posted without the flow\'s state, in another browser, or twice', async () => {
  const browser = await readyClient(server, 'browser');
  const { returnTo } = await start(browser);
  const result = encode(telegramResult(user()));
  const loginError = `${CALLBACK_URL}?error=unknown&error_process=login`;
  assert.equal((await post(browser, returnTo.split('?')[0]!, result)).location, loginError);
  assert.equal((await post(await readyClient(server, 'browser'), returnTo, result)).location, loginError);
  assert.equal((await post(browser, returnTo, result)).location, CALLBACK_URL);
  assert.equal((await post(browser, returnTo, result)).location, loginError, 'replayed');
});

it('relays the fragment in Chromium: the page\'s script runs under its policy and posts with the browser\'s cookie', { skip: browserSkipReason() }, async () => {
  const client = await readyClient(server, 'browser');
  const { returnTo } = await start(client);
  const chromium = await launchBrowser();
  try {
    const context = await chromium.newContext();
    await context.addCookies([...client.cookies].map(([name, value]) => ({ name, value, url: `${server.baseUrl}/accounts/` })));
    // The SPA is not running here: its callback page is answered by the test.
    await context.route(`${CALLBACK_URL}**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>SPA</p>' }));
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${returnTo}#tgAuthResult=${encodeURIComponent(encode(telegramResult(user())))}`);
    await page.waitForURL(`${CALLBACK_URL}**`);
    assert.equal(page.url(), CALLBACK_URL);
    assert.deepEqual(violations, []);
  } finally {
    await chromium.close();
  }
});
