import type { Mailer } from './mailer.js';
import type { SmsSender } from './sms/sender.js';
import type { Metrics } from '../observability/metrics.js';

// Outgoing messages are counted where every flow's mail and SMS pass: the
// transport the app wires, whichever transport that is.

export function countedMailer(mailer: Mailer, metrics: Metrics): Mailer {
  return {
    send: (mail) =>
      mailer.send(mail).then(
        () => metrics.mail('sent'),
        (error: unknown) => {
          metrics.mail('failed');
          throw error;
        },
      ),
    close: () => mailer.close(),
  };
}

export function countedSmsSender(sender: SmsSender, metrics: Metrics): SmsSender {
  return {
    send: (sms) =>
      sender.send(sms).then(
        () => metrics.sms('sent'),
        (error: unknown) => {
          metrics.sms('failed');
          throw error;
        },
      ),
  };
}
