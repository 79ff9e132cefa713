import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createMailer, type Mailer } from '../../src/messaging/mailer.js';
import { parseSmtpUrl } from '../../src/config/smtp-url.js';
import { loadConfig } from '../../src/config/config.js';
import { createTranslator } from '../../src/i18n/catalog.js';
import { loadTemplates } from '../../src/templates/load.js';
import { renderMail, type MailContent } from '../../src/messaging/mail-content.js';
import { extractUrls, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';

// Non-ASCII (encoded-words, quoted-printable) and HTML specials (escaping) in one value.
const siteName = 'Zoë’s <b>&</b> Club';
const escapedSiteName = 'Zoë’s &lt;b&gt;&amp;&lt;/b&gt; Club';
const email = 'zoë+<b>&@example.test';
// Longer than a quoted-printable line (76), so the sink must join soft line breaks.
const key = 'MQ:1uZ9fX:' + 'a'.repeat(70);
const url = `https://app.example.test/account/verify-email/${key}`;
const code = 'K7QX-92ZD';

const config = loadConfig({ SITE_NAME: siteName });
const i18n = createTranslator({ languages: ['en'], defaultLanguage: 'en' });
const { templates } = loadTemplates(config, i18n);
const current_site = { name: siteName, domain: 'app.example.test' };
/** A mail from the default templates, as the flows render it. */
const render = (prefix: string, context: Record<string, unknown> = {}): MailContent =>
  renderMail(templates, config, `account/email/${prefix}`, 'en', { email, current_site, ...context });
const notice = { timestamp: '2 December 2026 at 09:30 UTC', ip: '203.0.113.7', user_agent: 'test' };

let sink: SmtpSink;
let mailer: Mailer;

before(async () => {
  sink = await startSmtpSink();
  mailer = createMailer({ smtpUrl: sink.url, from: 'Zoë <noreply@example.test>', log: () => {} });
});

after(async () => {
  await mailer.close();
  await sink.close();
});

const cases: { name: string; mail: MailContent; lines: string[] }[] = [
  { name: 'verification by link', mail: render('email_confirmation', { key, activate_url: url }), lines: [url] },
  { name: 'verification by code', mail: render('email_confirmation', { code }), lines: [code] },
  { name: 'already exists', mail: render('account_already_exists', { password_reset_url: url, signup_url: url }), lines: [url] },
  { name: 'password reset by link', mail: render('password_reset_key', { key, password_reset_url: url }), lines: [url] },
  { name: 'password reset by code', mail: render('password_reset_code', { code }), lines: [code] },
  { name: 'unknown account', mail: render('unknown_account', { signup_url: url }), lines: [url] },
  { name: 'login code', mail: render('login_code', { code }), lines: [code] },
  { name: 'password changed', mail: render('password_changed', notice), lines: [] },
];

for (const [i, { name, mail, lines }] of cases.entries()) {
  test(`SMTP delivers the ${name} mail, decoded intact`, async () => {
    const to = `user${i}@example.test`;
    await mailer.send({ to, ...mail });
    // Upper case on purpose: recipients match case-insensitively.
    const received = await sink.waitForMail({ to: to.toUpperCase() });

    assert.deepEqual(received.to, [to]);
    assert.equal(received.from, 'noreply@example.test');
    assert.equal(received.subject, mail.subject);
    assert.ok(received.subject.startsWith(`[${siteName}] `));
    assert.equal(received.text, mail.text);
    assert.equal(received.html, mail.html);

    const textLines = received.text.split('\n');
    for (const line of lines) assert.ok(textLines.includes(line), `${line} on a line of its own`);
    assert.deepEqual(extractUrls(received.text), lines.filter((l) => l === url));

    assert.ok(received.html.includes(escapedSiteName));
    assert.ok(received.html.includes('zoë+&lt;b&gt;&amp;@example.test'));
    assert.ok(!received.html.includes('<b>'));
    for (const line of lines) assert.ok(received.html.includes(line));
  });
}

test('a mostly non-ASCII mail (base64 body, B-encoded folded subject) decodes intact', async () => {
  const greek = 'Ζωή Ζωή Ζωή Ζωή Ζωή Ζωή Ζωή Ζωή Ζωή Ζωή Ζωή Ζωή Ζωή Ζωή Ζωή Ζωή';
  const greekConfig = loadConfig({ SITE_NAME: greek });
  const mail = renderMail(loadTemplates(greekConfig, i18n).templates, greekConfig, 'account/email/login_code', 'en', { email: 'ζωή@example.test', current_site: { name: greek, domain: 'app.example.test' }, code });
  await mailer.send({ to: 'greek@example.test', ...mail });
  const received = await sink.waitForMail({ to: 'greek@example.test' });
  assert.match(received.raw, /Subject: =\?UTF-8\?B\?[^\n]*\n /);
  assert.equal(received.subject, mail.subject);
  assert.equal(received.text, mail.text);
  assert.equal(received.html, mail.html);
});

test('a code-only verification mail carries no link', () => {
  const mail = render('email_confirmation', { code });
  assert.deepEqual(extractUrls(mail.text), []);
  assert.ok(!mail.html.includes('<a '));
});

test('an attribute-breaking link is escaped in href', () => {
  const mail = render('password_reset_key', { key, password_reset_url: 'https://x.test/"><script>' });
  assert.ok(mail.html.includes('href="https://x.test/&quot;&gt;&lt;script&gt;"'));
});

test('concurrent sends all arrive', async () => {
  const tos = Array.from({ length: 8 }, (_, i) => `burst${i}@example.test`);
  await Promise.all(tos.map((to) => mailer.send({ to, ...render('login_code', { email: to, code }) })));
  for (const to of tos) await sink.waitForMail({ to, subjectIncludes: 'sign-in code' });
});

test('an address list typed as one recipient does not fan out', async () => {
  await assert.rejects(mailer.send({ to: 'a@example.test, b@example.test', ...render('password_changed', notice) }));
  assert.ok(!sink.mails.some((m) => m.to.includes('b@example.test')));
});

test('the smtp://user:pass@ form sends with decoded credentials', async () => {
  const authed = createMailer({
    smtpUrl: `smtp://us%40er:p%3Ass@127.0.0.1:${sink.port}`,
    from: 'noreply@example.test',
    log: () => {},
  });
  try {
    await authed.send({ to: 'authed@example.test', ...render('password_changed', notice) });
    await sink.waitForMail({ to: 'authed@example.test' });
  } finally {
    await authed.close();
  }
});

test('waitForMail times out listing what was received', async () => {
  await assert.rejects(sink.waitForMail({ to: 'nobody@example.test' }, 50), /nobody@example\.test.*received: \[to /);
});

test('the console mailer logs one record with recipient, subject and the plain text with its link', async () => {
  const records: Array<{ fields: Record<string, any>; message: string }> = [];
  const consoleMailer = createMailer({ from: 'noreply@example.test', log: (fields, message) => records.push({ fields, message }), showBodies: true });
  const mail = render('email_confirmation', { key, activate_url: url });
  await consoleMailer.send({ to: 'zoe@example.test', ...mail });
  await consoleMailer.close();

  assert.equal(records.length, 1);
  const logged = records[0]!.fields.mail;
  assert.equal(logged.to, 'zoe@example.test');
  assert.equal(logged.subject, mail.subject);
  assert.ok(logged.text.includes(url));
  assert.ok(!JSON.stringify(records).includes('<p>'), 'the HTML part is not logged');
});

test('without showBodies (production) the console mailer logs recipient and subject only', async () => {
  const records: Array<Record<string, any>> = [];
  const consoleMailer = createMailer({ from: 'noreply@example.test', log: (fields) => records.push(fields) });
  const mail = render('email_confirmation', { key, activate_url: url });
  await consoleMailer.send({ to: 'zoe@example.test', ...mail });

  assert.deepEqual(records, [{ mail: { to: 'zoe@example.test', subject: mail.subject } }]);
  assert.ok(!JSON.stringify(records).includes(key));
});

test('send rejects when the SMTP server is unreachable', async () => {
  const closedPort = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const unreachable = createMailer({ smtpUrl: `smtp://127.0.0.1:${closedPort}`, from: 'noreply@example.test', log: () => {} });
  try {
    await assert.rejects(unreachable.send({ to: 'x@example.test', ...render('password_changed', notice) }));
  } finally {
    await unreachable.close();
  }
});

test('parseSmtpUrl accepts the documented forms', () => {
  assert.deepEqual(parseSmtpUrl('smtp://localhost:1025'), { host: 'localhost', port: 1025, tls: 'none' });
  assert.deepEqual(parseSmtpUrl('smtp://relay.example.test'), { host: 'relay.example.test', port: 25, tls: 'none' });
  assert.deepEqual(parseSmtpUrl('smtp://u:p@mail.example.test:587'), {
    host: 'mail.example.test',
    port: 587,
    tls: 'opportunistic',
    auth: { user: 'u', pass: 'p' },
  });
  assert.deepEqual(parseSmtpUrl('smtps://me%40example.test:p%40ss%2Fw%3Ard@mail.example.test:465'), {
    host: 'mail.example.test',
    port: 465,
    tls: 'implicit',
    auth: { user: 'me@example.test', pass: 'p@ss/w:rd' },
  });
  assert.equal(parseSmtpUrl('smtps://u:p@mail.example.test').port, 465);
  assert.equal(parseSmtpUrl('smtp://[::1]:25').host, '::1');
});

test('parseSmtpUrl rejects invalid URLs, naming SMTP_URL and never echoing the password', () => {
  for (const bad of [
    'not a url',
    'http://u:hunter2@mail.example.test:25',
    'smtp://:25',
    'smtp:///path',
    'smtp://mail.example.test:99999',
    'smtp://mail.example.test:0',
    'smtp://mail.example.test:abc',
    'smtp://u:hunter2@mail.example.test:25/path',
    'smtp://u:hunter2@mail.example.test:25?pool=false',
    'smtp://user@mail.example.test:25',
    'smtps://u:hunter2%E0%A4@mail.example.test:465',
  ]) {
    assert.throws(
      () => parseSmtpUrl(bad),
      (e: Error) => /SMTP_URL/.test(e.message) && /smtps:\/\//.test(e.message) && !e.message.includes('hunter2'),
      bad,
    );
  }
});
