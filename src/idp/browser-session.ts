import type { Config } from '../config/config.js';
import type { Db } from '../store/db.js';
import { findLiveSession } from '../store/sessions.js';
import type { LiveSession } from '../tokens/strategy.js';

// The browser's session here (its cookie), read once per provider request:
// the login prompt's check (login-policy.ts) and the sid of the tokens the
// request issues (session-ids.ts) both need it.

export interface BrowserSessionDeps {
  config: Config;
  db: Db;
  now: () => number;
}

export function browserSession(ctx: any, deps: BrowserSessionDeps): Promise<LiveSession | null> {
  ctx.state.browserSession ??= (async () => {
    const key = ctx.cookies.get(deps.config.session.cookieName);
    return key ? findLiveSession(deps.db, key, deps.now()) : null;
  })();
  return ctx.state.browserSession;
}
