import type { UserOverview } from '../../store/users.js';
import type { EmailAddress } from '../../store/email-addresses.js';
import type { PhoneNumber } from '../../store/phones.js';
import type { Session } from '../../domain/session.js';
import type { SocialAccount } from '../../store/social-accounts.js';
import type { AuditEventRecord } from '../../store/audit-events.js';
import type { Delivery } from '../../store/webhook-deliveries.js';
import { maskText } from '../../flows/admin/settings-masking.js';
import type { AuthenticatorView } from '../../flows/admin/authenticators.js';
import type { UserDetails } from '../../flows/admin/users.js';
import type { IdpClientRecord } from '../../store/idp-clients.js';
import { isCurrentPasswordHash, passwordScheme } from '../../security/passwords.js';

// How the admin API shows its resources. Each view names its fields: a
// password hash, a secret or a key never reaches the wire. Times are ISO 8601.

const iso = (millis: number | null) => (millis === null ? null : new Date(millis).toISOString());

export function userView(user: UserOverview) {
  const scheme = passwordScheme(user.passwordHash);
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    email_verified: user.email === null ? null : user.emailVerified,
    is_active: user.isActive,
    is_admin: user.isAdmin,
    has_usable_password: scheme !== 'none' && scheme !== 'unusable',
    password_hasher: scheme,
    password_current: isCurrentPasswordHash(user.passwordHash),
    created_at: iso(user.createdAt),
    last_login_at: iso(user.lastLoginAt),
    first_name: user.firstName,
    last_name: user.lastName,
    profile: user.profile,
  };
}

export function userDetailsView(details: UserDetails) {
  return { ...userView(details.user), language: details.user.language, email_addresses: details.addresses.map(addressView), phone: details.phone ? phoneView(details.phone) : null };
}

export function addressView(address: EmailAddress) {
  return { email: address.email, verified: address.verified, primary: address.primary };
}

export function phoneView(phone: PhoneNumber) {
  return { phone: phone.phone, verified: phone.verified };
}

/** A session; `current` (console callers only) says whether it is the one the caller is using. */
export function sessionView(session: Session, callerSession: number | null = null) {
  return {
    id: session.id,
    created_at: iso(session.createdAt),
    last_seen_at: iso(session.lastSeenAt),
    expires_at: iso(session.expiresAt),
    ip: session.ip,
    user_agent: session.userAgent,
    methods: session.methods.map((m) => m.method),
    ...(callerSession === null ? {} : { current: session.id === callerSession }),
  };
}

export function authenticatorView(a: AuthenticatorView) {
  return {
    id: a.id,
    type: a.type,
    created_at: iso(a.createdAt),
    last_used_at: iso(a.lastUsedAt),
    ...(a.key ? { name: a.key.name, passkey: a.key.passkey } : {}),
    ...(a.recoveryCodes ? { recovery_codes: a.recoveryCodes } : {}),
  };
}

export function socialAccountView(account: SocialAccount, providerName: string | null) {
  const extra = account.extraData;
  const display = [extra.email, extra.login, extra.name, extra.preferred_username].find((v): v is string => typeof v === 'string');
  return { id: account.id, provider: account.provider, provider_name: providerName, uid: account.uid, ...(display ? { display } : {}) };
}

export function eventView(event: AuditEventRecord) {
  return {
    id: event.id,
    event_id: event.eventId,
    occurred_at: iso(event.occurredAt),
    type: event.type,
    user_id: event.userId,
    ip: event.ip,
    user_agent: event.userAgent,
    outcome: event.outcome,
    detail: event.detail,
  };
}

/** The audit event type a delivery carries (its payload's `type`), or backchannel_logout for the OpenID provider's logout requests. */
function deliveredType(delivery: Delivery): string | null {
  if (delivery.kind !== 'webhook') return delivery.kind;
  try {
    const type = (JSON.parse(delivery.payload) as { type?: unknown }).type;
    return typeof type === 'string' ? type : null;
  } catch {
    return null;
  }
}

/** A delivery; its URL and last error without the password the URL may carry (a WEBHOOK_URLS userinfo). */
export function deliveryView(delivery: Delivery) {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    event_type: deliveredType(delivery),
    kind: delivery.kind,
    url: maskText(delivery.url),
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: delivery.status === 'pending' ? iso(delivery.nextAttemptAt) : null,
    last_error: delivery.lastError === null ? null : maskText(delivery.lastError),
    created_at: iso(delivery.createdAt),
    finished_at: iso(delivery.finishedAt),
  };
}

/** An OpenID provider client: its registration, never its secret's hash. */
export function idpClientView(client: IdpClientRecord) {
  return {
    id: client.id,
    name: client.name,
    type: client.type,
    scopes: client.scopes,
    default_scopes: client.defaultScopes,
    grant_types: client.grantTypes,
    response_types: client.responseTypes,
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    cors_origins: client.corsOrigins,
    allow_uri_wildcards: client.allowUriWildcards,
    skip_consent: client.skipConsent,
    backchannel_logout_uri: client.backchannelLogoutUri,
    resource_server: client.resourceServer,
    require_pushed_authorization_requests: client.requirePushedAuthorizationRequests,
    created_at: iso(client.createdAt),
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    jwks: client.jwks,
    jwks_uri: client.jwksUri,
  };
}
