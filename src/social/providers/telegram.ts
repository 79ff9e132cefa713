import type { ProviderType } from '../provider-type.js';
import { ProviderError } from '../provider-type.js';
import { integerOption } from '../app.js';
import { text, uidOf } from '../kit/claims.js';
import { accountDisplay } from '../kit/display.js';
import { checkTelegramLogin, decodeAuthResult } from '../kit/telegram-login.js';

// Telegram: not OAuth. The browser goes to Telegram's login page for the
// app's bot (client_id: the bot's id; secret: its token), which sends it back
// to our callback with the signed result in the URL fragment; our relay page
// posts it to us. The result counts only with a good hash and a recent
// auth_date, and it is the profile (no email).

const TELEGRAM_AUTH = 'https://oauth.telegram.org/auth';
/** The reference's default, in seconds. */
const AUTH_DATE_VALIDITY = 30;

export const telegram: ProviderType = {
  id: 'telegram',
  name: 'Telegram',
  flows: ['provider_redirect'],
  options: { auth_date_validity: { kind: 'integer', appOnly: true } },
  callback: {
    stateKey: (params) => params.get('state'),
    answer: (params) => (params.get('tgAuthResult') ? 'answered' : 'failed'),
    relayPage: true,
  },
  listsClientId: false,
  create(context) {
    const { app } = context;
    // As the reference: the app's settings, else AUTH_PARAMS (of the provider or the app), else 30 s.
    const fromParams = Number(app.common.authParams.auth_date_validity);
    const validity = integerOption(app, 'auth_date_validity') ?? (Number.isSafeInteger(fromParams) && fromParams >= 0 ? fromParams : AUTH_DATE_VALIDITY);
    return {
      app,
      usesNonce: false,
      async authorizationUrl(authorization) {
        const back = new URL(authorization.redirectUri);
        back.searchParams.set('state', authorization.state);
        const url = new URL(TELEGRAM_AUTH);
        url.searchParams.set('origin', `${back.origin}/`);
        url.searchParams.set('bot_id', app.clientId);
        url.searchParams.set('request_access', 'write');
        url.searchParams.set('embed', '0');
        url.searchParams.set('return_to', back.toString());
        return url;
      },
      async completeRedirect(input) {
        const data = decodeAuthResult(input.params.get('tgAuthResult') ?? '');
        if (!data) throw new ProviderError('tgAuthResult is not base64 JSON');
        const check = checkTelegramLogin(data, app.secret, Math.floor(context.now() / 1000), validity);
        if (!check.ok) throw new ProviderError(`Telegram login refused: ${check.reason}`);
        const { fields } = check;
        return {
          identity: {
            uid: uidOf(fields.id),
            extraData: fields,
            emails: [],
            firstName: text(fields.first_name),
            lastName: text(fields.last_name),
            username: text(fields.username),
          },
          tokens: null,
        };
      },
      async verifyToken() {
        return null;
      },
      display: (extraData) => accountDisplay(extraData, app.name),
    };
  },
};
