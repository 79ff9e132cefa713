import type { ProviderType } from '../provider-type.js';
import { ProviderError } from '../provider-type.js';
import { stringOption } from '../app.js';
import { singleEmail, text, uidOf } from '../kit/claims.js';
import { accountDisplay } from '../kit/display.js';
import { isObject } from '../kit/api.js';
import { objectAt, oauth1Type } from '../kit/oauth1/oauth1-provider.js';

// The reference's other OAuth 1.0a providers, one declaration each: their
// endpoints, the API call that says who the user is, and how its answer maps
// to the uid, address (never counted as verified), names and extra_data,
// each as the reference reads it.

/** `value._content`, Flickr's way of wrapping a text field. */
const content = (value: unknown): string | null => (isObject(value) ? text(value._content) : null);

export const flickr = oauth1Type(
  'flickr',
  'Flickr',
  (context) => ({
    requestTokenUrl: 'https://www.flickr.com/services/oauth/request_token',
    authorizeUrl: 'https://www.flickr.com/services/oauth/authorize',
    accessTokenUrl: 'https://www.flickr.com/services/oauth/access_token',
    authParams: (given) => ({ perms: 'read', ...given }),
    async profile(api) {
      const rest = 'https://api.flickr.com/services/rest?format=json&nojsoncallback=1';
      const login = objectAt(await api.signedGet(`${rest}&method=flickr.test.login`), 'user', 'flickr.test.login');
      const userId = text(login.id);
      if (!userId) throw new ProviderError('flickr.test.login: no user id');
      // extra_data is the people.getInfo answer alone, as the reference keeps it.
      const info = await api.signedGet(`${rest}&method=flickr.people.getInfo&user_id=${encodeURIComponent(userId)}`);
      const person = objectAt(info, 'person', 'flickr.people.getInfo');
      return {
        uid: uidOf(person.nsid),
        extraData: info as Record<string, unknown>,
        emails: singleEmail((info as Record<string, unknown>)['email-address'], false),
        name: content(person.realname),
        username: content(person.username),
      };
    },
    display(extraData) {
      const person = isObject(extraData.person) ? extraData.person : {};
      return content(person.username) ?? content(person.realname) ?? accountDisplay(extraData, context.app.name);
    },
  }),
  // The reference reads PROFILE_FIELDS but sends it nowhere; accepted, so its settings start unchanged.
  { profile_fields: { kind: 'strings' } },
);

export const trello = oauth1Type('trello', 'Trello', (context) => ({
  requestTokenUrl: 'https://trello.com/1/OAuthGetRequestToken',
  authorizeUrl: 'https://trello.com/1/OAuthAuthorizeToken',
  accessTokenUrl: 'https://trello.com/1/OAuthGetAccessToken',
  defaultScope: ['read'],
  // As the reference: a web-server token that does not expire, shown under the app's name.
  authParams: (given, app) => ({ ...given, type: 'web_server', name: app.name, expiration: 'never' }),
  async profile(api, access) {
    // Trello's API is not signed: the app's API key (the app's `key`) and the user's token are parameters.
    const query = new URLSearchParams({ key: context.app.key, token: access.token });
    const member = await api.get(`https://api.trello.com/1/members/me?${query}`);
    if (!isObject(member)) throw new ProviderError('members/me: not an object');
    return { uid: uidOf(member.id), extraData: member, emails: singleEmail(member.email, false), username: text(member.username), name: text(member.name) };
  },
}));

export const xing = oauth1Type('xing', 'Xing', (context) => ({
  requestTokenUrl: 'https://api.xing.com/v1/request_token',
  authorizeUrl: 'https://www.xing.com/v1/authorize',
  accessTokenUrl: 'https://api.xing.com/v1/access_token',
  async profile(api) {
    const answer = await api.signedGet('https://api.xing.com/v1/users/me.json');
    const user = isObject(answer) && Array.isArray(answer.users) && isObject(answer.users[0]) ? answer.users[0] : null;
    if (!user) throw new ProviderError('users/me: no user');
    return {
      uid: uidOf(user.id),
      extraData: user,
      emails: singleEmail(user.active_email, false),
      username: text(user.page_name),
      firstName: text(user.first_name),
      lastName: text(user.last_name),
    };
  },
  display: (extraData) => text(extraData.active_email) ?? accountDisplay(extraData, context.app.name),
}));

export const tumblr = oauth1Type('tumblr', 'Tumblr', () => ({
  requestTokenUrl: 'https://www.tumblr.com/oauth/request_token',
  authorizeUrl: 'https://www.tumblr.com/oauth/authorize',
  accessTokenUrl: 'https://www.tumblr.com/oauth/access_token',
  async profile(api) {
    const user = objectAt(objectAt(await api.signedGet('https://api.tumblr.com/v2/user/info'), 'response', 'user/info'), 'user', 'user/info');
    // The blog name is the uid, and the reference's first name.
    return { uid: uidOf(user.name), extraData: user, emails: [], firstName: text(user.name) };
  },
}));

export const vimeo = oauth1Type('vimeo', 'Vimeo', () => ({
  requestTokenUrl: 'https://vimeo.com/oauth/request_token',
  authorizeUrl: 'https://vimeo.com/oauth/authorize',
  accessTokenUrl: 'https://vimeo.com/oauth/access_token',
  async profile(api) {
    const person = objectAt(await api.signedGet('https://vimeo.com/api/rest/v2?method=vimeo.people.getInfo&format=json'), 'person', 'vimeo.people.getInfo');
    return { uid: uidOf(person.id), extraData: person, emails: [], name: text(person.display_name), username: text(person.username) };
  },
}));

export const openstreetmap = oauth1Type('openstreetmap', 'OpenStreetMap', () => ({
  requestTokenUrl: 'https://www.openstreetmap.org/oauth/request_token',
  authorizeUrl: 'https://www.openstreetmap.org/oauth/authorize',
  accessTokenUrl: 'https://www.openstreetmap.org/oauth/access_token',
  async profile(api) {
    const user = objectAt(await api.signedGet('https://api.openstreetmap.org/api/0.6/user/details.json'), 'user', 'user/details');
    return { uid: uidOf(user.id), extraData: user, emails: [], username: text(user.display_name) };
  },
}));

export const discogs = oauth1Type('discogs', 'discogs', () => ({
  requestTokenUrl: 'https://api.discogs.com/oauth/request_token',
  authorizeUrl: 'https://discogs.com/oauth/authorize',
  accessTokenUrl: 'https://api.discogs.com/oauth/access_token',
  async profile(api) {
    const identity = await api.signedGet('https://api.discogs.com/oauth/identity');
    if (!isObject(identity)) throw new ProviderError('oauth/identity: not an object');
    return { uid: uidOf(identity.id), extraData: identity, emails: [] };
  },
}));

export const fiveHundredPx = oauth1Type('500px', '500px', () => ({
  requestTokenUrl: 'https://api.500px.com/v1/oauth/request_token',
  authorizeUrl: 'https://api.500px.com/v1/oauth/authorize',
  accessTokenUrl: 'https://api.500px.com/v1/oauth/access_token',
  async profile(api) {
    const user = objectAt(await api.signedGet('https://api.500px.com/v1/users'), 'user', 'users');
    return {
      uid: uidOf(user.id),
      extraData: user,
      emails: singleEmail(user.email, false),
      username: text(user.username),
      firstName: text(user.firstname),
      lastName: text(user.lastname),
    };
  },
}));

export const evernote: ProviderType = oauth1Type(
  'evernote',
  'Evernote',
  (context) => {
    const host = stringOption(context.app, 'evernote_hostname') ?? 'sandbox.evernote.com';
    return {
      // One endpoint answers both token requests.
      requestTokenUrl: `https://${host}/oauth`,
      authorizeUrl: `https://${host}/OAuth.action`,
      accessTokenUrl: `https://${host}/oauth`,
      // No API call: the access token's answer (edam_userId, edam_shard, ...) is the profile; the
      // token itself is left out of extra_data, which is not sealed (the reference keeps it there).
      async profile(_api, access) {
        const { oauth_token: _token, oauth_token_secret: _secret, ...profile } = access.fields;
        return { uid: uidOf(profile.edam_userId), extraData: profile, emails: [] };
      },
      expiresAt(access) {
        const expires = Number(access.fields.edam_expires);
        return Number.isFinite(expires) && expires > 0 ? expires : null;
      },
    };
  },
  { evernote_hostname: { kind: 'string' } },
);
