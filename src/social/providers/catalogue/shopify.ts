import { declareOAuth2Provider, type Settings } from '../../kit/declared-provider.js';
import { isObject } from '../../kit/api.js';
import { isTrue } from '../../kit/claims.js';
import { pickObject } from '../../kit/fields.js';
import type { ProviderEmail } from '../../provider-type.js';

// Shopify: the shop's own admin at <shop>.myshopify.com. The reference takes
// the shop from the login request's `?shop=`; the headless redirect form
// carries no such field, so an app names its shop in its settings (`shop`,
// the store's handle or its myshopify.com host), one app per shop. The
// account is the shop (shop.json under Shopify's header), or with
// AUTH_PARAMS `grant_options[]: per-user` (online access) the staff member
// the token answer names, kept as `associated_user`. IS_EMBEDDED is
// accepted and changes nothing: Shopify retired the embedded app SDK's
// iframe redirect in 2022, and the SPA starts the flow itself.
const SHOP = /^[a-z0-9-]+\.myshopify\.com$/;
const host = (s: Settings) => {
  const shop = String(s.shop ?? '');
  return shop.includes('.') ? shop : `${shop}.myshopify.com`;
};
const perUser = (data: Record<string, unknown>) => isObject(data.associated_user);

export const shopify = declareOAuth2Provider({
  id: 'shopify',
  name: 'Shopify',
  settings: { shop: { kind: 'string', required: true, appOnly: true }, is_embedded: { kind: 'boolean' } },
  authorizeUrl: (s) => `https://${host(s)}/admin/oauth/authorize`,
  tokenUrl: (s) => `https://${host(s)}/admin/oauth/access_token`,
  scope: ['read_orders', 'read_products'],
  scopeDelimiter: ',',
  profile: async ({ api, settings, token }) => {
    const shop = await api.object(`https://${host(settings)}/admin/shop.json`, { token: { header: 'x-shopify-access-token' } });
    return isObject(token.raw.associated_user) ? { ...shop, associated_user: token.raw.associated_user } : shop;
  },
  // Shopify names a staff member only for per-user (online) grants.
  uid: (data) => (perUser(data) ? pickObject(data, 'associated_user').id : pickObject(data, 'shop').id),
  emails: (data): ProviderEmail[] => {
    const owner = perUser(data) ? pickObject(data, 'associated_user') : pickObject(data, 'shop');
    if (typeof owner.email !== 'string' || owner.email === '') return [];
    // Shopify says nothing of a shop's address being verified; a staff member's carries email_verified.
    return [{ email: owner.email, verified: perUser(data) && isTrue(owner.email_verified), primary: true }];
  },
  firstName: 'associated_user.first_name',
  lastName: 'associated_user.last_name',
  validate: (app) => (SHOP.test(host(app.options)) ? null : 'shop: expected the store\'s handle or its myshopify.com host name, e.g. example-store'),
});
