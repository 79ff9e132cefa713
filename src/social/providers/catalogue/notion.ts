import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { parseTokenBody, tokenAnswer } from '../../kit/code-exchange.js';
import { providerFetch } from '../../kit/provider-api.js';
import { ProviderError } from '../../provider-type.js';
import { pick } from '../../kit/fields.js';

// Notion: the code is exchanged with HTTP Basic and a JSON body, and the
// token answer is the profile (the workspace and its owner); the account is
// the user in that workspace, as in the reference.
export const notion = declareOAuth2Provider({
  id: 'notion',
  name: 'Notion',
  authorizeUrl: 'https://api.notion.com/v1/oauth/authorize',
  tokenUrl: 'https://api.notion.com/v1/oauth/token',
  authorizeParams: { owner: 'user' },
  async exchange(context, _settings, input) {
    const { app } = context;
    const answer = await providerFetch(context, 'https://api.notion.com/v1/oauth/token', {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${app.clientId}:${app.secret}`).toString('base64')}`,
      },
      body: JSON.stringify({ code: input.code, grant_type: 'authorization_code', redirect_uri: input.redirectUri }),
    });
    if (answer.status !== 200) throw new ProviderError(`Notion's token endpoint answered ${answer.status}`);
    return tokenAnswer(context, parseTokenBody(answer.text, answer.type));
  },
  profile: async ({ token }) => {
    const { access_token: _a, refresh_token: _r, ...profile } = token.raw;
    return profile;
  },
  uid: (data) => {
    const user = pick(data, 'owner.user.id');
    return user && data.workspace_id ? `user-${String(user)}_workspace-${String(data.workspace_id)}` : undefined;
  },
  email: 'owner.user.person.email',
  fullName: 'owner.user.name',
});
