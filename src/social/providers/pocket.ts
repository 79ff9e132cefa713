import type { ProviderType } from '../provider-type.js';
import { ProviderError } from '../provider-type.js';
import { stringOption } from '../app.js';
import { isObject, request } from '../kit/api.js';
import { text, uidOf } from '../kit/claims.js';
import { accountDisplay } from '../kit/display.js';

// Pocket: OAuth 1 in outline but not in form (no signatures): a request code
// for the app's consumer key, the user sent to Pocket to approve it, and the
// code traded for an access token and the username. Pocket sends nothing
// back to the callback, so the flow's state rides in the redirect_uri, and
// the code is kept sealed with it. The username is the account's address,
// counted as verified (the reference's rule).

const POCKET = 'https://getpocket.com';

export const pocket: ProviderType = {
  id: 'pocket',
  name: 'Pocket',
  flows: ['provider_redirect'],
  // Pocket's endpoints at this origin instead (a relay, or a test's stand-in).
  options: { base_url: { kind: 'url', appOnly: true } },
  callback: {
    stateKey: (params) => params.get('state'),
    // Pocket says nothing at the callback; the code exchange tells whether the user approved.
    answer: () => 'answered',
  },
  listsClientId: false,
  create(context) {
    const { app } = context;
    const base = stringOption(app, 'base_url') ? new URL(stringOption(app, 'base_url')!).origin : POCKET;
    const post = async (path: string, body: Record<string, string>, what: string): Promise<Record<string, unknown>> => {
      const answer = await request(
        `${base}${path}`,
        { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8', 'x-accept': 'application/json' }, body: JSON.stringify(body) },
        context.timeoutSeconds,
      );
      if (answer.status !== 200 || !isObject(answer.body)) throw new ProviderError(`${what}: answered ${answer.status}`);
      return answer.body;
    };
    const back = (redirectUri: string, state: string) => {
      const url = new URL(redirectUri);
      url.searchParams.set('state', state);
      return url.toString();
    };
    return {
      app,
      usesNonce: false,
      async authorizationUrl(authorization) {
        const redirectUri = back(authorization.redirectUri, authorization.state);
        const code = text((await post('/v3/oauth/request', { consumer_key: app.clientId, redirect_uri: redirectUri }, 'request code')).code);
        if (!code) throw new ProviderError('request code: none in the answer');
        const url = new URL(`${base}/auth/authorize`);
        url.searchParams.set('request_token', code);
        url.searchParams.set('redirect_uri', redirectUri);
        for (const [name, value] of Object.entries(app.common.authParams)) url.searchParams.set(name, value);
        return { url, stateKey: authorization.state, secret: code };
      },
      async completeRedirect(input) {
        if (!input.secret) throw new ProviderError('no request code kept with the flow');
        const answer = await post('/v3/oauth/authorize', { consumer_key: app.clientId, code: input.secret }, 'access token');
        const accessToken = text(answer.access_token);
        const username = text(answer.username);
        if (!accessToken || !username) throw new ProviderError('access token: no access_token or username');
        return {
          // The reference keeps the token pair in extra_data too; here only the username, tokens stay sealed.
          identity: { uid: uidOf(username), extraData: { username }, emails: [{ email: username, verified: true, primary: true }] },
          tokens: { accessToken: input.secret, refreshToken: accessToken, expiresAt: null },
        };
      },
      async verifyToken() {
        return null;
      },
      display: (extraData) => accountDisplay(extraData, app.name),
    };
  },
};
