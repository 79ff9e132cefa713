import type { FastifyRequest } from 'fastify';

/** A request header's value as one string, or undefined when it is absent or empty. */
export function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
