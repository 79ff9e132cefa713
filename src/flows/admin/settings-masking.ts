// What of a setting's value may be shown to an administrator. The rule
// fails safe: a value is hidden whole when its name is on the list of
// secrets or merely sounds like one (SECRET, PASSWORD, KEY, TOKEN, ...),
// unless it is a plain yes/no or number; what shows is still scrubbed of
// the secrets a value can carry inside it: a URL's userinfo, query
// parameters that sound secret, JSON members that do, and PEM blocks.

export const MASK = '••••••';

/** Settings that are secrets whatever they look like. */
const SECRET_SETTINGS = new Set([
  'SECRET_KEY',
  'SECRET_KEY_FALLBACKS',
  'HEADLESS_JWT_PRIVATE_KEY',
  'HEADLESS_JWT_PRIVATE_KEY_FALLBACKS',
  'IDP_OIDC_PRIVATE_KEY',
  'WEBHOOK_SECRET',
  'SMS_WEBHOOK_SECRET',
  'TWILIO_ACCOUNT_SID',
  'TWILIO_AUTH_TOKEN',
  'MFA_TOTP_INSECURE_BYPASS_CODE',
]);

/** Names that sound secret but are a choice among a few words (checked when the server started). */
const NOT_SECRET = new Set(['HEADLESS_TOKEN_STRATEGY', 'IDP_OIDC_ACCESS_TOKEN_FORMAT']);

const SECRET_SOUNDING = /secret|passw|pwd|key|token|credential|private|auth_?code|sid$|signature|cert/i;
const PLAIN = /^(?:true|false|yes|no|on|off|-?\d{1,9})$/i;
const PEM = /-----BEGIN [A-Z ]+-----/;

export interface Shown {
  /** The value as it may be shown; null when it is hidden whole. */
  value: string | null;
  /** Whether anything of it was hidden. */
  masked: boolean;
}

/** A setting's value as an administrator may see it. */
export function maskSetting(name: string, raw: string): Shown {
  const plain = PLAIN.test(raw.trim());
  if (SECRET_SETTINGS.has(name) || (SECRET_SOUNDING.test(name) && !NOT_SECRET.has(name) && !plain) || PEM.test(raw)) return { value: null, masked: true };
  const trimmed = raw.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      // Not JSON we can look inside: it may hold anything.
      return { value: null, masked: true };
    }
    const shown = JSON.stringify(maskJson(parsed));
    return { value: shown, masked: shown !== JSON.stringify(parsed) };
  }
  const shown = maskText(raw);
  return { value: shown, masked: shown !== raw };
}

function maskJson(value: unknown, key = ''): unknown {
  if (SECRET_SOUNDING.test(key) && value !== null && typeof value !== 'boolean' && !(typeof value === 'number' && PLAIN.test(String(value)))) return MASK;
  if (typeof value === 'string') return PEM.test(value) ? MASK : maskText(value);
  if (Array.isArray(value)) return value.map((item) => maskJson(item, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskJson(v, k)]));
  return value;
}

// scheme://userinfo@ : the whole userinfo goes when it has no password part (it may be a token alone).
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@]*)@/gi;
const QUERY_PARAM = /([?&;])([^=&#\s]+)=([^&#\s]*)/g;

/** Hides URL passwords (or a userinfo without one) and secret-sounding query parameters anywhere in a text. */
export function maskText(text: string): string {
  return text
    .replace(USERINFO, (_all, scheme: string, userinfo: string) => {
      const colon = userinfo.indexOf(':');
      return `${scheme}${colon === -1 ? MASK : `${userinfo.slice(0, colon)}:${MASK}`}@`;
    })
    .replace(QUERY_PARAM, (all, lead: string, name: string) => (SECRET_SOUNDING.test(decodeURIComponentSafe(name)) ? `${lead}${name}=${MASK}` : all));
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
