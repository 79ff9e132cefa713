import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { startStandin, type Standin } from './standin.js';

// Steam on loopback: its OpenID 2.0 provider (checkid_setup answered with a
// positive assertion signed under an association of its own, or a cancel;
// check_authentication confirming only its own untampered, unused
// assertions, as section 11.4.2 of the spec says) and the Web API's
// GetPlayerSummaries for the app's key.

const NS = 'http://specs.openid.net/auth/2.0';
export const CLAIMED_ID_PREFIX = 'https://steamcommunity.com/openid/id/';

export interface SteamStandin {
  url: string;
  standin: Standin;
  /** Who approves the checkid_setup request of this flow (by the state in its return_to), or 'deny'. */
  decide(state: string, steamId: string | 'deny'): void;
  /** A player GetPlayerSummaries knows (others answer an empty list, as for an unknown id). */
  addPlayer(player: Record<string, unknown> & { steamid: string }): void;
  /** check_authentication requests received, with their answer. */
  checks: boolean[];
  close(): Promise<void>;
}

/** Section 6.1: the signed fields as `key:value` lines, in the order `openid.signed` lists them. */
function signature(secret: Buffer, fields: URLSearchParams): Buffer {
  const signed = (fields.get('openid.signed') ?? '').split(',');
  const text = signed.map((name) => `${name}:${fields.get(`openid.${name}`) ?? ''}\n`).join('');
  return createHmac('sha256', secret).update(text).digest();
}

/** `opEndpoint`: the endpoint the assertions name, when the server reaches this stand-in in Steam's place (SOCIALACCOUNT_PROVIDER_ORIGINS). */
export async function startSteam(apiKey: string, opEndpoint?: string): Promise<SteamStandin> {
  const standin = await startStandin();
  const endpoint = opEndpoint ?? `${standin.url}/openid/login`;
  const decisions = new Map<string, string>();
  const associations = new Map<string, Buffer>();
  const usedNonces = new Set<string>();
  const players = new Map<string, Record<string, unknown>>();
  const checks: boolean[] = [];

  standin.routes.set('GET /openid/login', ({ url }) => {
    const q = url.searchParams;
    const returnTo = q.get('openid.return_to') ?? '';
    if (q.get('openid.ns') !== NS || q.get('openid.mode') !== 'checkid_setup' || !returnTo.startsWith(q.get('openid.realm') ?? '\0')) {
      return { status: 400, html: 'Invalid OpenID request' };
    }
    const back = new URL(returnTo);
    const steamId = decisions.get(back.searchParams.get('state') ?? '');
    if (!steamId || steamId === 'deny') {
      back.searchParams.set('openid.ns', NS);
      back.searchParams.set('openid.mode', 'cancel');
      return { redirect: back.toString() };
    }
    const handle = randomBytes(6).toString('hex');
    const secret = randomBytes(32);
    associations.set(handle, secret);
    const fields = new URLSearchParams({
      'openid.ns': NS,
      'openid.mode': 'id_res',
      'openid.op_endpoint': endpoint,
      'openid.claimed_id': `${CLAIMED_ID_PREFIX}${steamId}`,
      'openid.identity': `${CLAIMED_ID_PREFIX}${steamId}`,
      'openid.return_to': returnTo,
      'openid.response_nonce': `${new Date().toISOString().slice(0, 19)}Z${randomBytes(8).toString('hex')}`,
      'openid.assoc_handle': handle,
      'openid.signed': 'signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle',
    });
    fields.set('openid.sig', signature(secret, fields).toString('base64'));
    for (const [name, value] of fields) back.searchParams.set(name, value);
    return { redirect: back.toString() };
  });

  standin.routes.set('POST /openid/login', ({ body }) => {
    const fields = new URLSearchParams(body);
    const secret = associations.get(fields.get('openid.assoc_handle') ?? '');
    const given = Buffer.from(fields.get('openid.sig') ?? '', 'base64');
    const nonce = fields.get('openid.response_nonce') ?? '';
    let valid = fields.get('openid.mode') === 'check_authentication' && secret !== undefined && !usedNonces.has(nonce);
    if (valid) {
      const expected = signature(secret!, fields);
      valid = given.length === expected.length && timingSafeEqual(given, expected);
    }
    // An assertion is confirmed once.
    if (valid) usedNonces.add(nonce);
    checks.push(valid);
    return { html: `ns:${NS}\nis_valid:${valid}\n` };
  });

  standin.routes.set('GET /ISteamUser/GetPlayerSummaries/v0002/', ({ url }) => {
    if (url.searchParams.get('key') !== apiKey) return { status: 403, html: '<html><head><title>Forbidden</title></head><body><h1>Forbidden</h1>Access is denied. Retrying will not help. Please verify your <pre>key=</pre> parameter.</body></html>' };
    const ids = (url.searchParams.get('steamids') ?? '').split(',');
    return { json: { response: { players: ids.flatMap((id) => (players.has(id) ? [players.get(id)!] : [])) } } };
  });

  return {
    url: standin.url,
    standin,
    checks,
    decide: (state, steamId) => void decisions.set(state, steamId),
    addPlayer: (player) => void players.set(player.steamid, player),
    close: () => standin.close(),
  };
}
