import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Stripe Connect: the connected account named by the token answer's stripe_user_id.
export const stripe = declareOAuth2Provider({
  id: 'stripe',
  name: 'Stripe',
  authorizeUrl: 'https://connect.stripe.com/oauth/authorize',
  tokenUrl: 'https://connect.stripe.com/oauth/token',
  scope: ['read_only'],
  profile: ({ api, token }) => api.object(`https://api.stripe.com/v1/accounts/${encodeURIComponent(String(token.raw.stripe_user_id ?? ''))}`),
  uid: 'id',
  email: 'email',
  fullName: 'display_name',
});
