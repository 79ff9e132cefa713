import { asUnavailable } from '../store/unavailable.js';
import { acceptLanguageOf, htmlBody, type Pages } from './pages.js';
import { servedRequest } from './served-requests.js';

// What Koa would answer in plain text is answered here as the provider
// answers its own errors, OAuth's JSON or its error page for a browser: an
// error that escapes the provider's handlers (a bug, a lost database),
// which Koa would also print to standard error, and a request none of its
// routes takes (a method or a path below one it does not serve). Every
// provider error is logged through the server's logger with the request id.

export type LogError = (error: unknown, message: string) => void;

function logFor(ctx: any, fallback: LogError): LogError {
  const served = servedRequest(ctx?.req);
  return served ? (error, message) => served.log.error({ err: error }, message) : fallback;
}

function answer(ctx: any, pages: Pages, status: number, out: { error: string; error_description: string }): void {
  ctx.status = status;
  if (ctx.accepts('json', 'html') === 'html') htmlBody(ctx, pages.error(acceptLanguageOf(ctx), 'failed'));
  else ctx.body = out;
}

/** The provider's outermost middleware (the first provider.use), and its error events logged. */
export function answerUnhandledErrors(provider: any, pages: Pages, fallback: LogError) {
  provider.on('server_error', (ctx: any, error: unknown) => logFor(ctx, fallback)(error, 'OpenID provider error'));
  // With a listener Koa no longer prints to standard error what reaches its own handler (a response that failed to write).
  provider.on('error', (error: unknown, ctx: any) => logFor(ctx, fallback)(error, 'OpenID provider failure'));
  return async (ctx: any, next: () => Promise<void>) => {
    try {
      await next();
    } catch (error) {
      logFor(ctx, fallback)(error, 'OpenID provider error');
      if (asUnavailable(error)) answer(ctx, pages, 503, { error: 'temporarily_unavailable', error_description: 'the service is temporarily unavailable, try again later' });
      else answer(ctx, pages, 500, { error: 'server_error', error_description: 'oops! something went wrong' });
      return;
    }
    // Koa's own 404: no route of the provider's set a body.
    if (ctx.status === 404 && ctx.body == null) answer(ctx, pages, 404, { error: 'invalid_request', error_description: 'unrecognized route or not allowed method' });
  };
}
