import { ConfigError } from './env.js';

// SMTP_URL: checked at start-up like every setting, read by the mailer.

/**
 * How to reach the relay. `none`: a local relay, plain text, no auth;
 * `opportunistic`: STARTTLS when the relay offers it; `implicit`: TLS from the first byte.
 */
export type SmtpSettings = {
  host: string;
  port: number;
  tls: 'none' | 'opportunistic' | 'implicit';
  auth?: { user: string; pass: string };
};

const ACCEPTED_FORMS =
  'expected smtp://host:port (local relay, no TLS, no auth), ' +
  'smtp://user:pass@host:port (STARTTLS when offered) or ' +
  'smtps://user:pass@host:port (implicit TLS)';

// The URL itself is never echoed back: it may hold the relay password.
function invalid(reason: string): ConfigError {
  return new ConfigError(`SMTP_URL is invalid (${reason}); ${ACCEPTED_FORMS}`);
}

export function parseSmtpUrl(url: string): SmtpSettings {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('not a URL, or a bad port');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw invalid(`scheme ${JSON.stringify(parsed.protocol.slice(0, -1))} is not smtp or smtps`);
  }
  const implicitTls = parsed.protocol === 'smtps:';
  if (parsed.hostname === '') throw invalid('no host');
  // Standard ports when none is given: 25 for a relay, 465 for implicit TLS.
  const port = parsed.port === '' ? (implicitTls ? 465 : 25) : Number(parsed.port);
  if (port < 1 || port > 65535) throw invalid('bad port');
  // Nodemailer reads options from a URL's query; ours are not meant to be tuned that way.
  if ((parsed.pathname !== '' && parsed.pathname !== '/') || parsed.search !== '' || parsed.hash !== '') {
    throw invalid('unexpected path, query or fragment');
  }
  if ((parsed.username === '') !== (parsed.password === '')) {
    throw invalid('credentials need both a user and a password');
  }
  let auth: SmtpSettings['auth'];
  if (parsed.username !== '') {
    try {
      auth = { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) };
    } catch {
      throw invalid('bad percent-encoding in the credentials');
    }
  }
  // IPv6 literals come back bracketed from URL; sockets want them bare.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const tls = implicitTls ? 'implicit' : auth ? 'opportunistic' : 'none';
  return auth ? { host, port, tls, auth } : { host, port, tls };
}
