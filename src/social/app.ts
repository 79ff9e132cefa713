// One configured provider app, as SOCIALACCOUNT_PROVIDERS describes it in the
// reference's shape: a provider type (the key, e.g. `openid_connect`) and an
// app of that type (`provider_id`, `name`, `client_id`, `secret`, `key`,
// `settings`). Each app is one provider the clients see, under its public id.

export type Flow = 'provider_redirect' | 'provider_token';

/** A setting a provider type accepts: `name` in an app's settings, `NAME` at the provider level. */
/** `object`: a nested JSON object the provider type checks itself (SAML's idp, sp, advanced); `json`: any JSON value, taken as given. */
export type OptionKind = 'string' | 'url' | 'boolean' | 'strings' | 'params' | 'verified_email' | 'pem' | 'integer' | 'json' | 'object';

export interface OptionSpec {
  kind: OptionKind;
  /** Allowed values of a string option. */
  oneOf?: readonly string[];
  required?: boolean;
  /** Only in an app's settings, never at the provider level. */
  appOnly?: boolean;
}

/**
 * A parsed setting: string, boolean, number, string[] or Record<string, string> as its
 * kind says; any JSON value for `json` (the reference's settings taken as
 * given: read by a provider, or of no use here but accepted so that its
 * configuration starts unchanged).
 */
export type OptionValue = unknown;

/** Settings every provider type accepts, with the reference's names. */
export interface CommonSettings {
  /** Replaces the type's default scopes. */
  scope: string[] | null;
  /** Extra authorization request parameters. */
  authParams: Record<string, string>;
  /** Treat the provider's addresses as verified: always, never (the provider decides), or for these domains. */
  verifiedEmail: boolean | string[];
  /** Per-app SOCIALACCOUNT_EMAIL_AUTHENTICATION; null: the global setting decides. */
  emailAuthentication: boolean | null;
  /** PKCE S256 in the redirect flow. */
  pkce: boolean;
  /** Served, but not listed (e.g. a second client id of the same provider for a mobile app's token flow). */
  hidden: boolean;
}

export interface SocialApp {
  /** The provider type: the key under SOCIALACCOUNT_PROVIDERS. */
  type: string;
  /** The public provider id: `provider_id`, or the type. Social accounts are stored under it. */
  id: string;
  name: string;
  clientId: string;
  secret: string;
  /** Apple: the team id. */
  key: string;
  common: CommonSettings;
  /** The type's own settings, validated against its option specs. */
  options: Readonly<Record<string, OptionValue>>;
}

export function stringOption(app: SocialApp, name: string): string | undefined {
  const value = app.options[name];
  return typeof value === 'string' ? value : undefined;
}

export function booleanOption(app: SocialApp, name: string): boolean | undefined {
  const value = app.options[name];
  return typeof value === 'boolean' ? value : undefined;
}

export function integerOption(app: SocialApp, name: string): number | undefined {
  const value = app.options[name];
  return typeof value === 'number' ? value : undefined;
}
