import type { ConsoleLog } from '../mailer.js';
import type { SmsSender } from './sender.js';

/**
 * The console sender: each message becomes one log record, so codes can be
 * copied from there in development. In production only the recipient is
 * logged: no code may reach a log there.
 */
export function consoleSender(log: ConsoleLog, showBodies: boolean): SmsSender {
  return {
    async send(sms) {
      if (showBodies) log({ sms: { to: sms.to, message: sms.message } }, 'SMS not sent (console backend)');
      else log({ sms: { to: sms.to } }, 'SMS not sent (console backend; message withheld in production)');
    },
  };
}
