// Baseline for `npm run bench` (BENCH_ONLY=idp): panva's oidc-provider as its
// own documentation starts it, on this project's copy of it: its in-memory
// adapter, one static confidential client allowed client_credentials with
// client_secret_basic, the scope the bench's client has, tokens living as
// long as ours do by default (3600 s), and node:http serving its callback.
// What the token endpoint costs with no database, no audit trail and no
// server around it. Plain JavaScript, run by plain node with the flags
// `npm start` passes, so that it compares with the compiled server. PORT,
// BARE_CLIENT_ID, BARE_CLIENT_SECRET and BARE_SCOPE are given by the bench.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const port = Number(process.env.PORT);
const scope = process.env.BARE_SCOPE ?? 'orders.read';
const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    {
      client_id: process.env.BARE_CLIENT_ID ?? 'bench',
      client_secret: process.env.BARE_CLIENT_SECRET ?? 'bench-secret',
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope,
    },
  ],
  scopes: ['openid', 'offline_access', scope],
  features: { clientCredentials: { enabled: true }, devInteractions: { enabled: false } },
  ttl: { ClientCredentials: 3600 },
});
const server = createServer(provider.callback());
server.listen(port, '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
