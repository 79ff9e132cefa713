import type { IdpSettings } from '../config/idp.js';
import { hashSecret } from '../security/secrets.js';
import { acceptLanguageOf, htmlBody, type Pages } from './pages.js';

// The device authorization grant (RFC 8628): the pages where a user enters
// and confirms a device's code, and what the provider leaves out of the
// polling rules (the interval it announces, slow_down).

export function deviceFlowFeature(settings: IdpSettings, pages: Pages): object {
  return {
    enabled: true,
    charset: settings.userCodeFormat.numeric ? 'digits' : 'base-20',
    mask: userCodeMask(settings.userCodeFormat),
    userCodeInputSource: async (ctx: any, form: string, _out: unknown, err: any) => {
      const error = err ? (err.userCode || err.name === 'NoCodeError' ? 'invalid_code' : 'failed') : '';
      // The provider's form selects the field with an inline handler: no script runs on these pages.
      const plain = form.replace(/\s+onfocus="[^"]*"/g, '');
      htmlBody(ctx, pages.render('device_authorization_code_form', acceptLanguageOf(ctx), { form: plain, error }));
    },
    userCodeConfirmSource: async (ctx: any, form: string, client: any, _info: unknown, userCode: string) => {
      const named = { name: client.clientName ?? client.clientId, id: client.clientId };
      htmlBody(ctx, pages.render('device_authorization_confirm_form', acceptLanguageOf(ctx), { client: named, user_code: userCode, form }));
    },
    successSource: async (ctx: any) => {
      htmlBody(ctx, pages.render('device_authorization_confirmed', acceptLanguageOf(ctx)));
    },
  };
}

/** oidc-provider's mask for the reference's user code format: `*` per character, dashes between groups. */
export function userCodeMask(format: { length: number; dashed: boolean }): string {
  if (!format.dashed) return '*'.repeat(format.length);
  const parts = format.length <= 8 ? 2 : 3;
  const chunk = Math.ceil(format.length / parts);
  const groups: string[] = [];
  for (let i = 0; i < format.length; i += chunk) groups.push('*'.repeat(Math.min(chunk, format.length - i)));
  return groups.join('-');
}

/**
 * A middleware (after the provider's answer) for the polling rules: the
 * interval a device is told (RFC 8628 section 3.2; oidc-provider leaves it
 * out), and slow_down for a device polling before its interval is over
 * (section 3.5), its interval then growing by 5 seconds. Kept per process
 * (by the code's digest): behind several instances a device may poll each
 * once per interval.
 */
export function devicePolling(settings: IdpSettings, now: () => number) {
  const polls = new Map<string, { at: number; interval: number }>();
  const slowDown = (ctx: any) => {
    const key = hashSecret(String(ctx.oidc.params.device_code));
    const at = now();
    const last = polls.get(key);
    const interval = last?.interval ?? settings.deviceCodeInterval;
    polls.delete(key);
    if (polls.size >= 10_000) polls.delete(polls.keys().next().value!);
    const early = last !== undefined && at - last.at < interval * 1000;
    polls.set(key, { at, interval: early ? interval + 5 : interval });
    if (early) ctx.body = { error: 'slow_down', error_description: 'you are polling too quickly and should back off at a reasonable rate' };
  };
  return async (ctx: any, next: () => Promise<void>) => {
    await next();
    const route = ctx.oidc?.route;
    if (route === 'token' && ctx.oidc.params?.grant_type === 'urn:ietf:params:oauth:grant-type:device_code' && ctx.body?.error === 'authorization_pending') slowDown(ctx);
    if (route === 'device_authorization' && ctx.status === 200 && ctx.body && typeof ctx.body === 'object') ctx.body = { ...ctx.body, interval: settings.deviceCodeInterval };
  };
}
