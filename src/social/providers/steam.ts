import type { ProviderType } from '../provider-type.js';
import { ProviderError } from '../provider-type.js';
import { stringOption } from '../app.js';
import { isObject } from '../kit/api.js';
import { text } from '../kit/claims.js';
import { accountDisplay } from '../kit/display.js';
import { checkidSetupUrl, OPENID2_CALLBACK, returnTo, verifyAssertion } from '../kit/openid2.js';

// Steam: OpenID 2.0 at Steam Community (the user's Steam id is the claimed
// identifier's last segment), then the player's summary from the Steam Web
// API with the app's key (the app's `secret`), kept as extra_data.

/** The OP endpoint Steam's discovery document names. */
const OPENID_ENDPOINT = 'https://steamcommunity.com/openid/login';
const CLAIMED_ID_PREFIX = 'https://steamcommunity.com/openid/id/';
const WEB_API = 'https://api.steampowered.com';

/** GetPlayerSummaries with the app's Web API key; no error names the URL, which holds the key. */
async function playerSummaries(api: string, key: string, steamId: string, timeoutSeconds: number): Promise<Record<string, unknown>> {
  const query = new URLSearchParams({ key, steamids: steamId });
  let response: Response;
  try {
    response = await fetch(`${api}/ISteamUser/GetPlayerSummaries/v0002/?${query}`, { headers: { accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(timeoutSeconds * 1000) });
  } catch (error) {
    throw new ProviderError(`GetPlayerSummaries failed: ${(error as Error).name}`);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  if (response.status !== 200 || !isObject(body)) throw new ProviderError(`GetPlayerSummaries: answered ${response.status}`);
  return body;
}

export const steam: ProviderType = {
  id: 'steam',
  name: 'Steam',
  flows: ['provider_redirect'],
  options: {
    // The realm the user is asked to trust: the reference's REALM, else this server's root.
    realm: { kind: 'string' },
    // Steam's OpenID endpoint and Web API at this origin instead (a relay, or a test's stand-in).
    base_url: { kind: 'url', appOnly: true },
  },
  callback: OPENID2_CALLBACK,
  clientIdOptional: true,
  listsClientId: false,
  create(context) {
    const { app } = context;
    const base = stringOption(app, 'base_url');
    const endpoint = base ? `${new URL(base).origin}${new URL(OPENID_ENDPOINT).pathname}` : OPENID_ENDPOINT;
    // This server's own calls go where SOCIALACCOUNT_PROVIDER_ORIGINS says; the browser still goes to Steam.
    const api = base ? new URL(base).origin : context.endpoint(WEB_API);
    return {
      app,
      usesNonce: false,
      async authorizationUrl(authorization) {
        const realm = stringOption(app, 'realm') ?? `${new URL(authorization.redirectUri).origin}/`;
        return checkidSetupUrl(endpoint, { returnTo: returnTo(authorization.redirectUri, authorization.state), realm });
      },
      async completeRedirect(input) {
        const claimedId = await verifyAssertion(endpoint, input.params, { returnTo: returnTo(input.redirectUri, input.state), timeoutSeconds: context.timeoutSeconds, reachedAt: context.endpoint(endpoint) });
        const steamId = claimedId.startsWith(CLAIMED_ID_PREFIX) ? claimedId.slice(CLAIMED_ID_PREFIX.length) : '';
        if (!/^\d{1,20}$/.test(steamId)) throw new ProviderError('the claimed identifier is not a Steam id');
        const body = await playerSummaries(api, app.secret, steamId, context.timeoutSeconds);
        const players = isObject(body.response) ? body.response.players : undefined;
        // No player (a private or new profile): the reference keeps just the id.
        const player = Array.isArray(players) && isObject(players[0]) && players[0].steamid === steamId ? players[0] : { steamid: steamId };
        const fullName = (text(player.realname) ?? '').trim();
        // The reference splits the real name only when it is exactly two words.
        const [firstName, lastName] = fullName.split(' ').length === 2 ? fullName.split(' ') : [fullName, ''];
        return {
          identity: {
            uid: steamId,
            extraData: player,
            emails: [],
            username: text(player.personaname) ?? steamId,
            firstName: firstName || null,
            lastName: lastName || null,
            name: fullName || null,
          },
          tokens: null,
        };
      },
      // No token flow for Steam in the reference.
      async verifyToken() {
        return null;
      },
      display: (extraData) => text(extraData.personaname) ?? accountDisplay(extraData, app.name),
    };
  },
};
