import type { ProviderType } from '../provider-type.js';
import { openidConnect } from './openid-connect.js';
import { google } from './google.js';
import { apple } from './apple.js';
import { microsoft } from './microsoft.js';
import { github } from './github.js';
import { gitlab } from './gitlab.js';
import { discord } from './discord.js';
// OAuth 1.0a, OpenID 2.0 (Steam) and Telegram: kits of their own beside OAuth 2's.
import { twitter } from './twitter.js';
import { discogs, evernote, fiveHundredPx, flickr, openstreetmap, trello, tumblr, vimeo, xing } from './oauth1-catalogue.js';
import { steam } from './steam.js';
import { telegram } from './telegram.js';
import { pocket } from './pocket.js';

const notOAuth2: readonly ProviderType[] = [twitter, discogs, evernote, fiveHundredPx, flickr, openstreetmap, trello, tumblr, vimeo, xing, pocket, steam, telegram];

// SAML 2.0: one app per organization (src/social/saml/).
import { saml } from '../saml/provider.js';

// The OAuth 2 / OpenID Connect catalogue (one declaration per provider).
import { oauth2Catalogue } from './catalogue/index.js';

/** Every provider type SOCIALACCOUNT_PROVIDERS may name. A new provider is one file here and one line below. */
export const providerTypes: readonly ProviderType[] = [
  openidConnect,
  google,
  apple,
  microsoft,
  github,
  gitlab,
  discord,
  // The OAuth 2 / OpenID Connect catalogue.
  ...oauth2Catalogue,
  ...notOAuth2,
  saml,
];

export function providerType(id: string): ProviderType | undefined {
  return providerTypes.find((type) => type.id === id);
}
