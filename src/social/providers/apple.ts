import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Identity, ProviderType } from '../provider-type.js';
import { stringOption } from '../app.js';
import { discoveryProvider } from '../kit/discovery-provider.js';
import { wellKnownUrl } from '../kit/servers.js';
import { singleEmail, text, uidOf } from '../kit/claims.js';
import { accountDisplay } from '../kit/display.js';
import { isObject } from '../kit/api.js';

// Sign in with Apple: OpenID Connect at appleid.apple.com, with Apple's
// specifics. Its answer comes back as a cross-site form post
// (response_mode=form_post); the client secret is a short-lived JWT signed
// with the app's private key (ES256); the user's name arrives only on the
// first login, in the posted `user` field, and is kept from then on.
// `client_id` may list several ids (web service id, app bundle ids): the
// first one is used for the redirect flow, and ID tokens for any are accepted.

const APPLE = 'https://appleid.apple.com';
/** Apple accepts client secrets valid for up to six months; one hour is plenty for an exchange. */
const SECRET_LIFETIME_SECONDS = 3600;

function clientIds(clientId: string): string[] {
  return clientId.split(',').map((id) => id.trim()).filter(Boolean);
}

/** The name from the posted `user` JSON; only the name is taken from it (the address comes from the signed ID token). */
function postedName(posted: string | null): { firstName: string; lastName: string } | null {
  if (!posted) return null;
  let user: unknown;
  try {
    user = JSON.parse(posted);
  } catch {
    return null;
  }
  if (!isObject(user) || !isObject(user.name)) return null;
  const firstName = text(user.name.firstName) ?? '';
  const lastName = text(user.name.lastName) ?? '';
  return firstName || lastName ? { firstName, lastName } : null;
}

function identity(claims: Record<string, unknown>, extraData: Record<string, unknown>): Identity {
  const name = isObject(extraData.name) ? extraData.name : {};
  return { uid: uidOf(claims.sub), extraData, emails: singleEmail(claims.email, claims.email_verified), firstName: text(name.firstName), lastName: text(name.lastName) };
}

/** The reference's display: the address unless it is a private relay one, else the name. */
function display(extraData: Record<string, unknown>, fallback: string): string {
  const email = text(extraData.email);
  if (email && !email.toLowerCase().endsWith('@privaterelay.appleid.com')) return email;
  const name = isObject(extraData.name) ? `${text(extraData.name.firstName) ?? ''} ${text(extraData.name.lastName) ?? ''}`.trim() : '';
  return name || accountDisplay(null, fallback);
}

export const apple: ProviderType = {
  id: 'apple',
  name: 'Apple',
  flows: ['provider_redirect', 'provider_token'],
  formPost: true,
  options: {
    certificate_key: { kind: 'pem', required: true, appOnly: true },
    server_url: { kind: 'url', appOnly: true },
  },
  validate(app) {
    if (!app.key) return 'key: required (the Apple team id)';
    if (!app.secret) return 'secret: required (the id of the key in certificate_key)';
    try {
      const key = createPrivateKey(stringOption(app, 'certificate_key')!);
      if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') return 'settings.certificate_key: expected an EC P-256 private key (Apple\'s .p8 file)';
    } catch {
      return 'settings.certificate_key: not a readable private key';
    }
    return null;
  },
  create(context) {
    const { app } = context;
    const ids = clientIds(app.clientId);
    const signingKey = createPrivateKey(stringOption(app, 'certificate_key')!);
    const clientSecret = async (audience: string) => {
      const now = Math.floor(context.now() / 1000);
      return new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: app.secret })
        .setIssuer(app.key)
        .setSubject(ids[0]!)
        .setAudience(audience)
        .setIssuedAt(now)
        .setExpirationTime(now + SECRET_LIFETIME_SECONDS)
        .sign(signingKey);
    };
    return discoveryProvider(context, {
      documentUrl: wellKnownUrl(stringOption(app, 'server_url') ?? APPLE),
      defaultScope: context.queryEmail ? ['name', 'email'] : ['name'],
      extra: { response_mode: 'form_post' },
      alwaysIdToken: true,
      clientId: ids[0],
      clientAuth: (server) => async (_as, client, body) => {
        body.set('client_id', client.client_id);
        body.set('client_secret', await clientSecret(server.issuer));
      },
      fetchUserinfo: false,
      audiences: ids,
      // As the reference: the ID token's claims, plus the name Apple posted.
      redirectData: ({ idClaims, postedUser }) => {
        const name = postedName(postedUser);
        return { ...idClaims, ...(name ? { name } : {}) };
      },
      identity,
      display: (extraData) => display(extraData, app.name),
      // Later logins carry no name: keep the one from the first.
      mergeExtraData: (stored, fresh) => (fresh.name || !stored.name ? fresh : { ...fresh, name: stored.name }),
    });
  },
};
