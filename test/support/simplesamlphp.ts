import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ApiClient } from './client.js';

// Debian's SimpleSAMLphp as a real SAML 2.0 identity provider, run by PHP's
// built-in web server from a configuration of its own in a temporary folder:
// users of exampleauth:UserPass, a key and certificate made by openssl, and
// service providers registered as the suites need them (its metadata files
// are read on every request, so a service provider can be added after start).

const SIMPLESAMLPHP = '/usr/share/simplesamlphp';
const PHP = '/usr/bin/php';
export const IDP_ENTITY_ID = 'urn:test:simplesamlphp-idp';

/** Why the identity provider cannot run here, or undefined; under CI=true its absence fails the run instead. */
export function simpleSamlSkipReason(): string | undefined {
  const missing = [`${SIMPLESAMLPHP}/www/saml2/idp/SSOService.php`, PHP, '/usr/bin/openssl'].filter((path) => !existsSync(path));
  // SimpleSAMLphp needs PHP's DOM extension, which Debian packages apart (php-xml).
  if (missing.length === 0 && !execFileSync(PHP, ['-m'], { encoding: 'utf8' }).split('\n').includes('dom')) missing.push('the PHP dom extension (php-xml)');
  if (missing.length === 0) return undefined;
  const reason = `SimpleSAMLphp is not installed (apt-get install simplesamlphp php-cli php-xml): missing ${missing.join(', ')}`;
  if (process.env.CI === 'true') throw new Error(reason);
  return reason;
}

export interface SamlUser {
  username: string;
  password: string;
  uid: string;
  email: string;
  givenName: string;
  sn: string;
}

export interface RemoteSp {
  entityId: string;
  acs: string;
  sls: string;
  /** Sign the assertion (default true) and the response (default false). */
  signAssertion?: boolean;
  signResponse?: boolean;
  /** The SP's certificate (PEM): assertions are encrypted to it. */
  encryptTo?: string;
  /** Require signed AuthnRequests, checked with this certificate (PEM). */
  requestsSignedWith?: string;
}

export interface KeyPair {
  key: string;
  cert: string;
}

export interface SimpleSamlIdp {
  url: string;
  entityId: string;
  metadataUrl: string;
  ssoUrl: string;
  sloUrl: string;
  /** The IdP's signing key and certificate (PEM); tests forge with the key. */
  keys: KeyPair;
  users: SamlUser[];
  registerSp(sp: RemoteSp): void;
  /** The page where the IdP starts a login of its own for `spEntityId` (IdP-initiated). */
  idpInitiatedUrl(spEntityId: string, relayState?: string): string;
  close(): Promise<void>;
}

/** A self-signed RSA key and certificate, made by openssl. */
export function makeKeyPair(dir: string, name: string): KeyPair {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.crt`);
  execFileSync('/usr/bin/openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '30', '-subj', `/CN=${name}`], { stdio: 'ignore' });
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

/** A port nobody listens on now, on the loopback address. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const php = (value: unknown): string => JSON.stringify(value).replace(/\$/g, '\\$');

function bareCert(pem: string): string {
  return pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
}

function usersOf(count: number): SamlUser[] {
  const run = randomBytes(3).toString('hex');
  return Array.from({ length: count }, (_, i) => ({
    username: `user${i}`,
    password: `password-${i}`,
    uid: `uid-${run}-${i}`,
    email: `saml-${run}-${i}@example.org`,
    givenName: `Given${i}`,
    sn: `Family${i}`,
  }));
}

/** `host`: the name its URLs use (it listens on 127.0.0.1 regardless): `localhost` puts it on another site than a 127.0.0.1 SP. */
export async function startSimpleSaml(options: { users?: number; host?: string } = {}): Promise<SimpleSamlIdp> {
  const dir = mkdtempSync(join(tmpdir(), 'simplesamlphp-'));
  for (const sub of ['config', 'metadata', 'cert', 'log', 'data', 'tmp', 'sessions']) mkdirSync(join(dir, sub));
  const port = await freePort();
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const keys = makeKeyPair(join(dir, 'cert'), 'idp');
  const users = usersOf(options.users ?? 12);

  writeFileSync(
    join(dir, 'config', 'config.php'),
    `<?php
require '/etc/simplesamlphp/config.php';
$config['baseurlpath'] = ${php(`${url}/`)};
$config['certdir'] = ${php(`${dir}/cert/`)};
$config['loggingdir'] = ${php(`${dir}/log/`)};
$config['datadir'] = ${php(`${dir}/data/`)};
$config['tempdir'] = ${php(`${dir}/tmp`)};
$config['metadatadir'] = ${php(`${dir}/metadata/`)};
$config['secretsalt'] = ${php(randomBytes(16).toString('hex'))};
$config['auth.adminpassword'] = ${php(randomBytes(16).toString('hex'))};
$config['timezone'] = 'UTC';
$config['enable.saml20-idp'] = true;
$config['module.enable'] = ['exampleauth' => true, 'core' => true, 'saml' => true, 'admin' => false];
$config['logging.handler'] = 'file';
$config['logging.level'] = SimpleSAML\\Logger::WARNING;
$config['store.type'] = 'phpsession';
$config['session.phpsession.savepath'] = ${php(`${dir}/sessions`)};
$config['session.cookie.secure'] = false;
$config['session.cookie.samesite'] = null;
$config['language.cookie.secure'] = false;
$config['admin.checkforupdates'] = false;
// Where the suites' frontend lives (logout's ReturnTo).
$config['trusted.url.domains'] = ['localhost:3000', 'localhost'];
`,
  );
  const userEntries = users
    .map((u) => `${php(`${u.username}:${u.password}`)} => ['uid' => [${php(u.uid)}], 'mail' => [${php(u.email)}], 'givenName' => [${php(u.givenName)}], 'sn' => [${php(u.sn)}]],`)
    .join('\n    ');
  writeFileSync(
    join(dir, 'config', 'authsources.php'),
    `<?php
$config = [
  'admin' => ['core:AdminPassword'],
  'example-userpass' => ['exampleauth:UserPass',
    ${userEntries}
  ],
];
`,
  );
  writeFileSync(
    join(dir, 'metadata', 'saml20-idp-hosted.php'),
    `<?php
$metadata[${php(IDP_ENTITY_ID)}] = [
  'host' => '__DEFAULT__',
  'privatekey' => 'idp.key',
  'certificate' => 'idp.crt',
  'auth' => 'example-userpass',
  'attributes.NameFormat' => 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri',
  'authproc' => [100 => ['class' => 'core:AttributeMap', 'name2oid']],
  'simplesaml.nameidattribute' => 'uid',
];
`,
  );
  const sps = new Map<string, RemoteSp>();
  const writeSps = () => {
    const entries = [...sps.values()].map((sp) => {
      const fields: string[] = [
        `'AssertionConsumerService' => ${php(sp.acs)}`,
        `'SingleLogoutService' => ${php(sp.sls)}`,
        `'NameIDFormat' => 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent'`,
        `'simplesaml.nameidattribute' => 'urn:oid:0.9.2342.19200300.100.1.1'`,
        `'saml20.sign.assertion' => ${sp.signAssertion ?? true ? 'true' : 'false'}`,
        `'saml20.sign.response' => ${sp.signResponse ? 'true' : 'false'}`,
      ];
      if (sp.encryptTo) fields.push(`'assertion.encryption' => true`, `'certData' => ${php(bareCert(sp.encryptTo))}`);
      if (sp.requestsSignedWith) fields.push(`'validate.authnrequest' => true`, `'validate.logout' => true`, `'certData' => ${php(bareCert(sp.requestsSignedWith))}`);
      return `$metadata[${php(sp.entityId)}] = [${fields.join(', ')}];`;
    });
    // Written aside and renamed into place: PHP may be reading the file for a request in flight.
    const path = join(dir, 'metadata', 'saml20-sp-remote.php');
    writeFileSync(`${path}.new`, `<?php\n${entries.join('\n')}\n`);
    renameSync(`${path}.new`, path);
  };
  writeSps();

  // No opcache: it would keep serving the SP metadata it compiled for up to
  // revalidate_freq seconds after registerSp rewrites the file.
  const child: ChildProcess = spawn(PHP, ['-d', 'opcache.enable=0', '-S', `127.0.0.1:${port}`, '-t', `${SIMPLESAMLPHP}/www`], {
    env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: join(dir, 'config') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const metadataUrl = `${url}/saml2/idp/metadata.php`;
  // Up when it serves its metadata (php -S logs its start on stderr, but answering is what counts).
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(metadataUrl);
      if (response.ok && (await response.text()).includes('EntityDescriptor')) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || attempt > 200) {
      child.kill();
      throw new Error(`SimpleSAMLphp did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    entityId: IDP_ENTITY_ID,
    metadataUrl,
    ssoUrl: `${url}/saml2/idp/SSOService.php`,
    sloUrl: `${url}/saml2/idp/SingleLogoutService.php`,
    keys,
    users,
    registerSp(sp) {
      sps.set(sp.entityId, sp);
      writeSps();
    },
    idpInitiatedUrl(spEntityId, relayState) {
      const params = new URLSearchParams({ spentityid: spEntityId });
      if (relayState) params.set('RelayState', relayState);
      return `${url}/saml2/idp/SSOService.php?${params}`;
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      if (child.exitCode === null) await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The fields of the first HTML form on a page, and where it posts. */
export function htmlForm(html: string, base: string): { action: string; fields: Record<string, string> } {
  const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#0?39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const form = /<form[^>]*action="([^"]*)"/i.exec(html);
  if (!form) throw new Error(`no form on the page: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const input of html.matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]*)"/i.exec(input[0]);
    const value = /value="([^"]*)"/i.exec(input[0]);
    if (name) fields[decode(name[1]!)] = value ? decode(value[1]!) : '';
  }
  return { action: new URL(decode(form[1]!), base).toString(), fields };
}

export interface IdpAnswer {
  action: string;
  fields: Record<string, string>;
  /** Whether the IdP showed its login form (false: its own session answered at once). */
  askedCredentials: boolean;
}

/**
 * The IdP's side of a login in a cookie jar of its own: from `start` (a URL
 * the browser is sent to, or a form it posts: the HTTP-POST binding) to its
 * login form, logs `user` in unless the IdP's session answers at once, and
 * answers the form the IdP has the browser post to the service provider
 * (SAMLResponse, RelayState).
 */
export async function throughIdp(start: string | { action: string; fields: Record<string, string> }, user: SamlUser, jar?: ApiClient): Promise<IdpAnswer> {
  const first = typeof start === 'string' ? start : start.action;
  const browser = (jar ??= new ApiClient(first, 'browser'));
  // Each hop with the page it answers: the last one's page is the IdP's login form or its answer.
  const hop = async (url: string, form?: Record<string, string>) => {
    const headers: Record<string, string> = browser.cookies.size ? { cookie: browser.cookieHeader } : {};
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, { method: form ? 'POST' : 'GET', headers, body: form ? new URLSearchParams(form).toString() : undefined, redirect: 'manual' });
    browser.absorbCookies(response.headers);
    const location = response.headers.get('location');
    return { location: location === null ? null : new URL(location, url).toString(), html: await response.text() };
  };
  let at = first;
  let answer = await hop(at, typeof start === 'string' ? undefined : start.fields);
  for (let i = 0; answer.location && i < 10; i++) {
    at = answer.location;
    answer = await hop(at);
  }
  let html = answer.html;
  const askedCredentials = !html.includes('SAMLResponse');
  if (askedCredentials) {
    const login = htmlForm(html, at);
    const posted = await fetch(login.action, {
      method: 'POST',
      headers: { cookie: browser.cookieHeader, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...login.fields, username: user.username, password: user.password }).toString(),
      redirect: 'manual',
    });
    browser.absorbCookies(posted.headers);
    html = await posted.text();
    for (let location = posted.headers.get('location'), i = 0; location && i < 10; i++) {
      const next = await fetch(new URL(location, login.action), { headers: { cookie: browser.cookieHeader }, redirect: 'manual' });
      browser.absorbCookies(next.headers);
      html = await next.text();
      location = next.headers.get('location');
    }
  }
  if (!html.includes('SAMLResponse')) throw new Error(`the IdP did not answer with a SAMLResponse form: ${html.slice(0, 500)}`);
  return { ...htmlForm(html, at), askedCredentials };
}
