import type { ProviderType } from '../provider-type.js';
import { openidConnect } from './openid-connect.js';

/** Every provider type SOCIALACCOUNT_PROVIDERS may name. A new provider is one file here and one line below. */
export const providerTypes: readonly ProviderType[] = [openidConnect];

export function providerType(id: string): ProviderType | undefined {
  return providerTypes.find((type) => type.id === id);
}
