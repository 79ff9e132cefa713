import type { RefusalTally } from '../audit/refusal-tally.js';
import type { Config, ClientKind } from '../config/config.js';
import type { Db } from '../store/db.js';
import type { Session } from '../domain/session.js';
import type { User } from '../domain/user.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import type { Mailer } from '../messaging/mailer.js';
import type { TokenStrategy } from '../tokens/strategy.js';
import type { SmsSender } from '../messaging/sms/sender.js';
import type { AtRestCipher } from '../security/at-rest.js';
import type { Metrics } from '../observability/metrics.js';
import type { SocialProviders } from '../social/registry.js';
import type { Clock } from '../kernel/clock.js';
import type { Logger } from '../kernel/log.js';
import type { Translator } from '../i18n/catalog.js';
import type { Templates } from '../templates/engine.js';

/** Everything a flow may use, wired once in buildApp. */
export interface Deps {
  config: Config;
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  mailer: Mailer;
  sms: SmsSender;
  log: Logger;
  /** HEADLESS_TOKEN_STRATEGY: session tokens, JWTs or a custom module. */
  tokens: TokenStrategy;
  /** Encrypts secrets the server must read back (TOTP secrets, provider tokens). */
  atRest: AtRestCipher;
  /** Prometheus counters (no-ops when METRICS_ENABLED=false). */
  metrics: Metrics;
  /** The catalogues: every text a person reads, in their language. */
  i18n: Translator;
  /** Every mail, SMS and server page (templates/, TEMPLATES_DIR), compiled at start. */
  templates: Templates;
  /** The configured social login providers. */
  social: SocialProviders;
  /** The OpenID provider's limits (IDP_OIDC_RATE_LIMITS), when it is on and they are. */
  idpLimiter?: RateLimiter;
  /** Rate-limit refusals, counted and written as `rate_limit.refused` events a minute at a time (absent where nothing is limited, as in some tests). */
  refusals?: RefusalTally;
}

/** Who is asking: resolved by the http layer before a flow runs. */
export interface RequestContext {
  client: ClientKind;
  ip: string;
  userAgent: string;
  /** The language the answer and any mail it sends are written in (Accept-Language among LANGUAGES). */
  language: string;
  /** The request named languages (Accept-Language): its `language` is then one to keep for the user (flows/language.ts). */
  languageAsked?: boolean;
  now: number;
  session: Session | null;
  /** The session's user when it is authenticated. */
  user: User | null;
  /** Browsers: the "trust this browser" cookie (MFA_TRUST_ENABLED), as sent. */
  mfaTrustCookie?: string;
}
