import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { tokenAnswer } from '../../kit/code-exchange.js';
import { providerApi } from '../../kit/provider-api.js';
import { pickObject } from '../../kit/fields.js';
import { ProviderError } from '../../provider-type.js';

// Feishu (Lark): the app first gets an app access token with its own
// credentials, then redeems the code with it; Feishu's answers say `code: 0`
// when they succeed and wrap their payload in `data`.
const OPEN_API = 'https://open.feishu.cn/open-apis';

function succeeded(answer: Record<string, unknown>, what: string): Record<string, unknown> {
  if (answer.code !== 0) throw new ProviderError(`Feishu ${what}: code ${String(answer.code)}`);
  return answer;
}

export const feishu = declareOAuth2Provider({
  id: 'feishu',
  name: 'feishu',
  settings: { authorize_url: { kind: 'url', default: `${OPEN_API}/authen/v1/index` } },
  authorizeUrl: (s) => s.authorize_url as string,
  tokenUrl: `${OPEN_API}/authen/v1/access_token`,
  clientIdParam: 'app_id',
  async exchange(context, _settings, input) {
    const { app } = context;
    const api = providerApi(context, '');
    const appToken = succeeded(await api.object(`${OPEN_API}/auth/v3/app_access_token/internal/`, { token: 'none', json: { app_id: app.clientId, app_secret: app.secret } }), 'app token');
    const answer = succeeded(
      await api.object(`${OPEN_API}/authen/v1/access_token`, { token: 'none', json: { grant_type: 'authorization_code', code: input.code, app_access_token: appToken.app_access_token } }),
      'access token',
    );
    return tokenAnswer(context, pickObject(answer, 'data'));
  },
  profile: async ({ api }) => pickObject(succeeded(await api.object(`${OPEN_API}/authen/v1/user_info`), 'user info'), 'data'),
  uid: 'open_id',
  username: 'name',
  fullName: 'name',
});
