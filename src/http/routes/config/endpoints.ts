import { Type } from 'typebox';
import type { ClientKind, Config } from '../../../config/config.js';
import { customEndpoint } from '../../endpoint.js';
import { socialConfig } from '../../social-views.js';

const ConfigResponse = Type.Object({
  status: Type.Integer(),
  data: Type.Object({
    account: Type.Object({
      login_methods: Type.Array(Type.String()),
      is_open_for_signup: Type.Boolean(),
      email_verification_by_code_enabled: Type.Boolean(),
      login_by_code_enabled: Type.Boolean(),
      password_reset_by_code_enabled: Type.Boolean(),
      authentication_method: Type.String({ description: 'Legacy: email, username or username_email.' }),
    }),
    socialaccount: Type.Optional(
      Type.Object(
        { providers: Type.Array(Type.Ref('Provider')) },
        { description: 'When social login is on: the providers this client can use, sorted by name.' },
      ),
    ),
    mfa: Type.Optional(
      Type.Object({
        supported_types: Type.Array(Type.String(), { description: 'MFA_SUPPORTED_TYPES, in configuration order.' }),
        passkey_login_enabled: Type.Boolean(),
      }),
    ),
    usersessions: Type.Object({
      track_activity: Type.Boolean({ description: 'USERSESSIONS_TRACK_ACTIVITY: sessions keep their last IP, user agent and time, and the list shows `last_seen_at`.' }),
    }),
  }),
});

/** The public configuration, computed once per client kind: it does not depend on the caller. */
export function configBody(config: Config, client: ClientKind) {
  const methods = config.account.loginMethods;
  return {
    status: 200,
    data: {
      account: {
        login_methods: methods,
        is_open_for_signup: config.account.signupOpen,
        email_verification_by_code_enabled: config.account.emailVerificationByCode,
        login_by_code_enabled: config.account.loginByCode.enabled,
        password_reset_by_code_enabled: config.account.passwordReset.byCode,
        // The legacy setting knows no phone: a single email or username login keeps its name, anything else is username_email.
        authentication_method: methods.length === 1 && methods[0] !== 'phone' ? methods[0]! : 'username_email',
      },
      ...(config.social.enabled ? { socialaccount: socialConfig(config.social, client) } : {}),
      ...(config.mfa.enabled ? { mfa: { supported_types: config.mfa.supportedTypes, passkey_login_enabled: config.mfa.passkeyLogin } } : {}),
      // The reference sends this group whenever its sessions app is on; its
      // SPA reads it to show the Sessions page. GET /auth/sessions is always on here.
      usersessions: { track_activity: config.userSessions.trackActivity },
    },
  };
}

export const config = customEndpoint({
  method: 'GET',
  path: '/config',
  tags: ['Configuration'],
  summary: 'Server configuration',
  description: 'The features this server has enabled, for a client to adapt its screens. Independent of the caller; fetch it once at start-up.',
  response: { 200: ConfigResponse },
  handler: (deps, client) => {
    const body = configBody(deps.config, client!);
    // Serialised once, by the route's own serializer, on the first request: a JSON string is sent as it is.
    let serialized: string | undefined;
    return (_request, reply) => reply.type('application/json; charset=utf-8').send((serialized ??= reply.serialize(body) as string));
  },
});
