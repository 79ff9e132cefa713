import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/config.js';
import { providerName } from '../../src/flows/admin/social-accounts.js';
import { TEST_SECRET } from '../support/server.js';

// The readable provider name the admin API gives a social account: the
// configured app's name, else the provider type's, else none.
describe('provider names of social accounts', () => {
  const config = loadConfig({
    SECRET_KEY: TEST_SECRET,
    SOCIALACCOUNT_PROVIDERS: JSON.stringify({
      github: { APPS: [{ client_id: 'gh-client', secret: 'gh-secret', name: 'GitHub at Acme' }] },
      openid_connect: { APPS: [{ provider_id: 'acme-sso', name: 'Acme SSO', client_id: 'sso', secret: 's', settings: { server_url: 'https://sso.example.com' } }] },
    }),
  });
  const deps = { config, db: undefined as never };

  it("is the configured app's name", () => {
    assert.equal(providerName(deps, 'github'), 'GitHub at Acme');
    assert.equal(providerName(deps, 'acme-sso'), 'Acme SSO');
  });
  it("is the provider type's name for an id no app has (any more)", () => {
    assert.equal(providerName(deps, 'gitlab'), 'GitLab');
  });
  it('is null for an id of neither', () => {
    assert.equal(providerName(deps, 'gone-sso'), null);
  });
});
