import { parseSmtpUrl, type SmtpSettings } from '../config/smtp-url.js';

export type OutgoingMail = { to: string; subject: string; text: string; html: string };

export interface Mailer {
  /** Rejects when the relay refuses or cannot be reached; the caller decides what that means. */
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

/** Where a console transport writes: one structured record per message. */
export type ConsoleLog = (fields: Record<string, unknown>, message: string) => void;

/**
 * `showBodies`: whether the console transport prints the text, links and
 * codes included. Outside production that is its purpose; in production
 * (where it must be chosen explicitly) only recipient and subject are
 * logged, since no key or code may reach a log there.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; log: ConsoleLog; showBodies?: boolean }): Mailer {
  return opts.smtpUrl === undefined
    ? consoleMailer(opts.log, opts.showBodies ?? false)
    : smtpMailer(parseSmtpUrl(opts.smtpUrl), opts.from);
}

/** The console transport: each mail becomes one log record instead of being sent. */
function consoleMailer(log: ConsoleLog, showBodies: boolean): Mailer {
  return {
    async send(mail) {
      const fields = showBodies ? { to: mail.to, subject: mail.subject, text: mail.text } : { to: mail.to, subject: mail.subject };
      log({ mail: fields }, showBodies ? 'mail not sent (console transport)' : 'mail not sent (console transport; body withheld in production)');
    },
    async close() {},
  };
}

function smtpMailer(settings: SmtpSettings, from: string): Mailer {
  // Made at the first mail, so that a server that sends none never loads nodemailer.
  let transport: ReturnType<typeof createTransport> | undefined;
  return {
    async send(mail) {
      transport ??= createTransport(settings);
      await (await transport).sendMail({
        from,
        // An address object is taken as one recipient; a bare string would be parsed
        // as an address list, so "a@x, b@y" typed into a form would reach two people.
        to: { name: '', address: mail.to },
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    },
    async close() {
      (await transport)?.close();
    },
  };
}

async function createTransport(settings: SmtpSettings) {
  const { default: nodemailer } = await import('nodemailer');
  return nodemailer.createTransport({
    // A few kept-open connections, so a burst of sign-ups does not open one connection per mail.
    pool: true,
    maxConnections: 3,
    host: settings.host,
    port: settings.port,
    secure: settings.tls === 'implicit',
    ignoreTLS: settings.tls === 'none',
    auth: settings.auth,
    // Nodemailer waits minutes by default; a request should not hang that long on a dead relay.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}
