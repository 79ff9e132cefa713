import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../flows/context.js';

// The console's session cookie never holds a session key itself, only the
// key sealed for the console (AES-GCM under SECRET_KEY, the at-rest cipher),
// so that the console's sessions and the public listener's never mix,
// although both live in the one sessions table: a public session key
// (sessionid, X-Session-Token) pasted as admin_sessionid is no seal of ours
// and opens nothing here, and an admin_sessionid is no key the public
// listener can find, nor one its holder can open to get the key. The rest
// of the console sees the plain key: opened on the way in, sealed again
// whenever a cookie is set.

const CONTEXT = 'admin_console_session';

export function sealSessionCookie(scope: FastifyInstance, deps: Deps, cookieName: string): void {
  // Registered before the session is resolved (registerClientAuth), so that it reads the opened key.
  scope.addHook('onRequest', async (request, reply) => {
    const sealed = request.cookies[cookieName];
    if (sealed !== undefined) {
      const key = deps.atRest.open(sealed, CONTEXT);
      if (key !== null) request.cookies[cookieName] = key;
      else {
        delete request.cookies[cookieName];
        reply.clearCookie(cookieName, { path: '/' });
      }
    }
    const setCookie = reply.setCookie.bind(reply);
    reply.setCookie = (name, value, options) => setCookie(name, name === cookieName && value !== '' ? deps.atRest.seal(value, CONTEXT) : value, options);
  });
}
