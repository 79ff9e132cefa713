import type { Deps } from './context.js';
import { notificationsOn, sendNotification, type NoticeSource, type Notification } from '../messaging/notices.js';

/**
 * Sends a notice the answer does not depend on (an "account exists" mail, a
 * password-changed warning): a failure is logged, never answered, so the
 * request's outcome and its timing stay the same either way.
 */
export async function sendNotice(deps: Deps, sending: Promise<void>, what: string): Promise<void> {
  try {
    await sending;
  } catch (error) {
    deps.log.error({ err: error }, `${what} notice failed`);
  }
}

/**
 * A message that must not slow its request's answer starts this long after
 * it: long enough that making and sending it (CPU, and traffic to the mail
 * relay) does not overlap the delivery of the answer, even to a client on
 * the same host; short enough that nobody waits for the mail.
 */
const AFTER_ANSWER_MS = 20;

/**
 * Builds and sends a message after the answer, for requests whose answer
 * must not tell whether an account exists: whatever the message costs to
 * make and send, a known address answers in the time of an unknown one. A
 * failure is logged; the client was told to expect a message either way.
 */
export function sendAfterAnswer(deps: Deps, what: string, send: () => Promise<void>): void {
  setTimeout(() => void sendNotice(deps, Promise.resolve().then(send), what), AFTER_ANSWER_MS).unref();
}

/**
 * A security notice (ACCOUNT_EMAIL_NOTIFICATIONS) to `email`, the account's primary
 * address, in the language of the request that made the change; none without an address.
 */
export async function notify(deps: Deps, ctx: NoticeSource, name: Notification, email: string | null | undefined, context?: Record<string, unknown>): Promise<void> {
  if (!email || !notificationsOn(deps.config, name)) return;
  await sendNotice(deps, sendNotification(deps, ctx, name, email, context), name);
}
