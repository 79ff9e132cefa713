import type { FastifyReply } from 'fastify';
import { PAGE_CSP } from '../../../idp/pages.js';

// The headers of the provider's HTML pages, oidc-provider's and ours alike.

export const PAGE_HEADERS = {
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(html);
}
