import type { SmsSettings } from '../../config/sms.js';
import type { ConsoleLog } from '../mailer.js';
import { consoleSender } from './console.js';
import { twilioSender } from './twilio.js';
import { webhookSender } from './webhook.js';

export interface OutgoingSms {
  /** E.164. */
  to: string;
  message: string;
}

/** One way out for every SMS, chosen by SMS_BACKEND. */
export interface SmsSender {
  /** Rejects when the message was not accepted; the caller decides what that means. */
  send(sms: OutgoingSms): Promise<void>;
}

/** `log` and `showBodies` serve the console backend (see consoleSender). */
export function createSmsSender(settings: SmsSettings, log: ConsoleLog, showBodies = false): SmsSender {
  switch (settings.backend) {
    case 'console':
      return consoleSender(log, showBodies);
    case 'webhook':
      return webhookSender(settings);
    case 'twilio':
      return twilioSender(settings);
  }
}
