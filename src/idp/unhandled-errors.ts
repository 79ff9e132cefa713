import { asUnavailable } from '../store/unavailable.js';
import { errorPage, htmlBody } from './pages.js';
import { servedRequest } from './served-requests.js';

// An error that escapes oidc-provider's own handlers (a bug, a lost
// database) would be answered by Koa with a plain-text 500 and printed to
// standard error. It is answered here as the provider answers its own
// errors, OAuth's JSON or its error page for a browser, and every provider
// error is logged through the server's logger with the request's id.

export type LogError = (error: unknown, message: string) => void;

function logFor(ctx: any, fallback: LogError): LogError {
  const served = servedRequest(ctx?.req);
  return served ? (error, message) => served.log.error({ err: error }, message) : fallback;
}

/** The provider's outermost middleware (the first provider.use), and its error events logged. */
export function answerUnhandledErrors(provider: any, fallback: LogError) {
  provider.on('server_error', (ctx: any, error: unknown) => logFor(ctx, fallback)(error, 'OpenID provider error'));
  // With a listener Koa no longer prints to standard error what reaches its own handler (a response that failed to write).
  provider.on('error', (error: unknown, ctx: any) => logFor(ctx, fallback)(error, 'OpenID provider failure'));
  return async (ctx: any, next: () => Promise<void>) => {
    try {
      await next();
    } catch (error) {
      logFor(ctx, fallback)(error, 'OpenID provider error');
      const unavailable = asUnavailable(error) !== null;
      ctx.status = unavailable ? 503 : 500;
      const out = unavailable
        ? { error: 'temporarily_unavailable', error_description: 'the service is temporarily unavailable, try again later' }
        : { error: 'server_error', error_description: 'oops! something went wrong' };
      if (ctx.accepts('json', 'html') === 'html') htmlBody(ctx, errorPage('Sign-in failed', out.error_description));
      else ctx.body = out;
    }
  };
}
