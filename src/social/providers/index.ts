import type { ProviderType } from '../provider-type.js';
import { openidConnect } from './openid-connect.js';
import { google } from './google.js';
import { apple } from './apple.js';
import { microsoft } from './microsoft.js';
import { github } from './github.js';
import { gitlab } from './gitlab.js';
import { discord } from './discord.js';
import { saml } from '../saml/provider.js';

/** Every provider type SOCIALACCOUNT_PROVIDERS may name. A new provider is one file here and one line below. */
export const providerTypes: readonly ProviderType[] = [openidConnect, google, apple, microsoft, github, gitlab, discord, saml];

export function providerType(id: string): ProviderType | undefined {
  return providerTypes.find((type) => type.id === id);
}
