import type { Config } from '../config/config.js';
import type { Db } from '../store/db.js';
import { idpSessionId } from '../security/idp-session-id.js';
import { secretRing } from '../security/signing.js';
import { browserSession } from './browser-session.js';
import { IDP_PATHS } from './paths.js';

// Every ID token carries `sid`, the session here its login came from
// (security/idp-session-id.ts), so that a logout token can end that one
// session at the client (back-channel logout). The provider reads a
// client's sid from its own session (Session#sidFor) while it answers an
// authorization or a device confirmation; that is where ours is put in,
// from the browser's session here, looked up before the provider runs.

export interface SessionIdDeps {
  config: Config;
  db: Db;
  now: () => number;
}

/** The requests that issue codes and ID tokens from the browser's session. */
const fromBrowser = (path: string) => path.startsWith(IDP_PATHS.authorization) || path.startsWith(IDP_PATHS.code_verification);

export function sessionIdsFromOurSessions(provider: any, deps: SessionIdDeps): void {
  const secret = secretRing(deps.config)[0]!;
  provider.use(async (ctx: any, next: () => Promise<void>) => {
    if (fromBrowser(ctx.path)) {
      const found = await browserSession(ctx, deps);
      if (found?.user) ctx.state.headlessSessionId = found.session.id;
    }
    await next();
  });
  const Session = provider.Session;
  const sidFor = Session.prototype.sidFor;
  Session.prototype.sidFor = function (this: { accountId?: string }, clientId: string, value?: string) {
    if (value !== undefined) return sidFor.call(this, clientId, value);
    const sessionId = provider.constructor.ctx?.state?.headlessSessionId;
    return typeof sessionId === 'number' ? idpSessionId(secret, sessionId, clientId) : sidFor.call(this, clientId);
  };
  provider.Client.prototype.includeSid = () => true;
}
