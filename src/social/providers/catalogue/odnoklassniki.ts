import { createHash } from 'node:crypto';
import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Odnoklassniki (OK.ru): users.getCurrentUser, signed as OK prescribes: md5
// over the sorted parameters (the token apart) and md5(token + secret); the
// app's `key` is its public application key.
const FIELDS = 'age,birthday,current_status,current_status_date,current_status_id,email,first_name,gender,has_email,last_name,locale,location,name,online,photo_id,pic1024x768,pic190x190,pic640x480,pic_1,pic_2,uid';
const md5 = (value: string) => createHash('md5').update(value).digest('hex');

export const odnoklassniki = declareOAuth2Provider({
  id: 'odnoklassniki',
  name: 'Odnoklassniki',
  authorizeUrl: 'https://www.odnoklassniki.ru/oauth/authorize',
  tokenUrl: 'https://api.odnoklassniki.ru/oauth/token.do',
  profile: ({ api, context, token }) => {
    const query: Record<string, string> = { method: 'users.getCurrentUser', fields: FIELDS, format: 'JSON', application_key: context.app.key };
    const signed = Object.entries(query).map(([k, v]) => `${k}=${v}`).sort().join('');
    query.sig = md5(signed + md5(token.tokens.accessToken + context.app.secret));
    return api.object('https://api.odnoklassniki.ru/fb.do', { token: { query: 'access_token' }, query });
  },
  uid: 'uid',
  email: 'email',
  firstName: 'first_name',
  lastName: 'last_name',
});
