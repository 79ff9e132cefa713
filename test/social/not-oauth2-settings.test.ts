import { it } from 'node:test';
import assert from 'node:assert/strict';
import { parseSocialProviders } from '../../src/config/social-providers.js';
import { ConfigError } from '../../src/config/env.js';

// SOCIALACCOUNT_PROVIDERS as a django-allauth project writes it for the
// OAuth 1.0a providers, Steam, Telegram, Pocket and the two providers the
// reference's headless API never serves: it starts unchanged.

const REFERENCE_SETTINGS = {
  twitter: { APP: { client_id: 'consumer-key', secret: 'consumer-secret' } },
  flickr: { PROFILE_FIELDS: ['id', 'first-name'], APP: { client_id: 'k', secret: 's' } },
  evernote: { EVERNOTE_HOSTNAME: 'www.evernote.com', APP: { client_id: 'k', secret: 's' } },
  trello: { SCOPE: ['read', 'write'], AUTH_PARAMS: { expiration: '30days' }, APP: { client_id: 'k', secret: 's', key: 'api-key' } },
  xing: { APP: { client_id: 'k', secret: 's' } },
  tumblr: { APP: { client_id: 'k', secret: 's' } },
  vimeo: { APP: { client_id: 'k', secret: 's' } },
  openstreetmap: { APP: { client_id: 'k', secret: 's' } },
  discogs: { APP: { client_id: 'k', secret: 's' } },
  '500px': { APP: { client_id: 'k', secret: 's' } },
  pocket: { APP: { client_id: 'consumer-key' } },
  steam: { REALM: 'https://www.example.com/', APP: { secret: 'web-api-key' } },
  telegram: { AUTH_PARAMS: { auth_date_validity: 60 }, APP: { client_id: '123456', secret: '123456:bot-token', settings: { auth_date_validity: 120 } } },
  openid: { SERVERS: [{ id: 'yahoo', name: 'Yahoo', openid_url: 'http://me.yahoo.com' }] },
  draugiem: { APP: { client_id: 'app-id', secret: 'app-key' } },
};

it('starts with the reference\'s settings of every provider beside OAuth 2', () => {
  const apps = parseSocialProviders(JSON.stringify(REFERENCE_SETTINGS), 'oidc');
  assert.deepEqual(
    apps.map((app) => app.id),
    ['twitter', 'flickr', 'evernote', 'trello', 'xing', 'tumblr', 'vimeo', 'openstreetmap', 'discogs', '500px', 'pocket', 'steam', 'telegram'],
  );
  const byId = new Map(apps.map((app) => [app.id, app]));
  assert.equal(byId.get('evernote')!.options.evernote_hostname, 'www.evernote.com');
  assert.equal(byId.get('steam')!.options.realm, 'https://www.example.com/');
  assert.equal(byId.get('steam')!.secret, 'web-api-key');
  assert.equal(byId.get('telegram')!.options.auth_date_validity, 120);
  assert.deepEqual(byId.get('trello')!.common.scope, ['read', 'write']);
});

it('refuses a Telegram auth_date_validity that is not a whole number, naming it', () => {
  const bad = { telegram: { APP: { client_id: '1', secret: 't', settings: { auth_date_validity: '30s' } } } };
  assert.throws(() => parseSocialProviders(JSON.stringify(bad), 'oidc'), (error: Error) => error instanceof ConfigError && /auth_date_validity/.test(error.message));
});
