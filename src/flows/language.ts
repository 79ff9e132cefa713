import type { User } from '../domain/user.js';
import type { Config } from '../config/config.js';
import type { Deps, RequestContext } from './context.js';
import { setUserLanguage } from '../store/users.js';

// The language a user reads, for what is sent outside their own requests.
// A request's answer and the mails it sends follow the request itself
// (ctx.language); the user's stored language is the one their signup, their
// last login or a later change request asked for, and a mail sent without a
// request of theirs (an administrator's password reset, a notice sent later)
// uses it. A request that names no language (an app that sends no
// Accept-Language) leaves the stored one as it is.

/** The language to keep for the user from this request; null when it named none. */
export function requestedLanguage(ctx: Pick<RequestContext, 'language' | 'languageAsked'>): string | null {
  return ctx.languageAsked ? ctx.language : null;
}

/**
 * The language of a mail to `user` outside their own request: the one they last used,
 * when still offered, else LANGUAGE_CODE. Reads the settings alone, so the CLI's
 * context (which has no catalogues) can ask too.
 */
export function languageOf(deps: { config: Pick<Config, 'languages'> }, user: Pick<User, 'language'> | null): string {
  const { languages, languageCode } = deps.config.languages;
  return user?.language && languages.includes(user.language) ? user.language : languageCode;
}

/**
 * A signed-in user's change request in another language than the stored one
 * updates it: one comparison per request, and a write only when it changed.
 * Reads (the session check above all) never write. Null when nothing is to do.
 */
export function rememberLanguage(deps: Deps, ctx: RequestContext): Promise<void> | null {
  const language = requestedLanguage(ctx);
  const { user } = ctx;
  if (language === null || user === null || user.language === language) return null;
  return setUserLanguage(deps.db, user.id, language).then(() => {
    ctx.user = { ...user, language };
  });
}
