import { createHash } from 'node:crypto';
import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { ProviderError } from '../../provider-type.js';

// Mail.Ru: users.getInfo of the token answer's x_mailru_vid, signed with
// md5 over the sorted parameters and the app secret (Mail.Ru's scheme).
export const mailru = declareOAuth2Provider({
  id: 'mailru',
  name: 'Mail.RU',
  authorizeUrl: 'https://connect.mail.ru/oauth/authorize',
  tokenUrl: 'https://connect.mail.ru/oauth/token',
  profile: async ({ api, context, token }) => {
    const query: Record<string, string> = { method: 'users.getInfo', app_id: context.app.clientId, secure: '1', uids: String(token.raw.x_mailru_vid ?? '') };
    const signed = Object.entries(query).map(([k, v]) => `${k}=${v}`).sort().join('');
    query.sig = createHash('md5').update(signed + context.app.secret).digest('hex');
    const answer = await api.json('https://www.appsmail.ru/platform/api', { token: 'none', query });
    const [user] = Array.isArray(answer) ? answer : [];
    if (typeof user !== 'object' || user === null) throw new ProviderError('Mail.Ru: no user');
    return user as Record<string, unknown>;
  },
  uid: 'uid',
  email: 'email',
  username: 'nick',
  firstName: 'first_name',
  lastName: 'last_name',
});
