import type { SmsSender } from './sender.js';

/** Development sender: the message goes to the log, so codes can be copied from there. */
export function consoleSender(log: (line: string) => void): SmsSender {
  return {
    async send(sms) {
      log('----- sms -----');
      log(`To: ${sms.to}`);
      log('');
      for (const line of sms.message.split('\n')) log(line);
      log('----- end of sms -----');
    },
  };
}
