import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Translator } from '../i18n/catalog.js';

/**
 * The language of an answer whose text a person reads (an error's `message`, the
 * console's catalogue), with the headers that say so: Content-Language names it, and
 * `Vary: Accept-Language` tells caches the text follows the header. Only such answers
 * carry them: a success answer of the API holds no text, so whoami and the other hot
 * reads neither negotiate nor grow a header.
 */
export function answerLanguage(i18n: Translator, request: FastifyRequest, reply: FastifyReply): string {
  const language = i18n.negotiate(request.headers['accept-language']);
  reply.header('content-language', language);
  // With one language offered the header changes nothing.
  if (i18n.languages.length > 1) appendVary(reply, 'Accept-Language');
  return language;
}

function appendVary(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary');
  if (current === undefined || current === '') {
    reply.header('vary', field);
    return;
  }
  const text = Array.isArray(current) ? current.join(', ') : String(current);
  if (text.trim() === '*' || text.split(',').some((name) => name.trim().toLowerCase() === field.toLowerCase())) return;
  reply.header('vary', `${text}, ${field}`);
}
