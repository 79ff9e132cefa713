import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../flows/context.js';
import { pagesOf, type PageError } from '../../../idp/pages.js';

// The headers of the provider's HTML pages, oidc-provider's and ours alike.

export function pageHeaders(deps: Deps): Record<string, string> {
  return {
    'content-security-policy': pagesOf(deps).csp,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  };
}

export function sendPage(deps: Deps, reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(pageHeaders(deps)).type('text/html; charset=utf-8').send(html);
}

/** An error page in the language the request asks for. */
export function sendErrorPage(deps: Deps, request: FastifyRequest, reply: FastifyReply, status: number, error: PageError): FastifyReply {
  return sendPage(deps, reply, status, pagesOf(deps).error(request.headers['accept-language'], error));
}
