import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import { RESERVED_FIELD_NAMES } from '../../src/config/profile.js';
import { SECRET, rejects } from './support.js';

// ACCOUNT_PROFILE_SCHEMA, HEADLESS_USER_FIELDS and IDP_OIDC_PROFILE_CLAIMS
// are read once at start: a schema that declares an account field (the
// admin role, the active state, verification, identifiers) or anything
// this server would read differently from ajv stops the start.

const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => JSON.stringify({ type: 'object', properties, ...extra });

describe('profile settings', () => {
  it('reads the fields, in order, with their rules', () => {
    const config = loadConfig({
      SECRET_KEY: SECRET,
      ACCOUNT_PROFILE_SCHEMA: schema({ company: { type: 'string', maxLength: 80 }, plan: { type: 'string', enum: ['free', 'pro'] }, seats: { type: 'integer', minimum: 1 } }, { required: ['company'] }),
      HEADLESS_USER_FIELDS: 'first_name,company',
      IDP_OIDC_PROFILE_CLAIMS: JSON.stringify({ company: 'org', seats: { claim: 'seat_count', scope: 'billing' } }),
    });
    assert.deepEqual(config.profile.fields, [
      { name: 'company', type: 'string', required: true, maxLength: 80 },
      { name: 'plan', type: 'string', required: false, enum: ['free', 'pro'] },
      { name: 'seats', type: 'integer', required: false, minimum: 1 },
    ]);
    assert.deepEqual(config.profile.userFields, ['first_name', 'company']);
    assert.deepEqual(config.profile.claims, [{ field: 'company', claim: 'org', scope: 'profile' }, { field: 'seats', claim: 'seat_count', scope: 'billing' }]);
    assert.deepEqual(loadConfig({ SECRET_KEY: SECRET }).profile, { fields: [], userFields: [], claims: [] });
  });

  it('reads the schema from a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'profile-schema-'));
    try {
      const path = join(dir, 'profile.json');
      writeFileSync(path, schema({ team: { type: 'string' } }));
      assert.deepEqual(loadConfig({ SECRET_KEY: SECRET, ACCOUNT_PROFILE_SCHEMA: path }).profile.fields, [{ name: 'team', type: 'string', required: false }]);
      rejects({ ACCOUNT_PROFILE_SCHEMA: join(dir, 'missing.json') }, 'ACCOUNT_PROFILE_SCHEMA');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start on a reserved field name', () => {
    for (const name of ['is_admin', 'is_active', 'email', 'email_verified', 'username', 'password', 'phone', 'first_name', 'is_staff', 'is_superuser', 'verified', 'id']) {
      assert.ok(RESERVED_FIELD_NAMES.has(name), name);
      rejects({ ACCOUNT_PROFILE_SCHEMA: schema({ [name]: { type: 'boolean' } }) }, 'ACCOUNT_PROFILE_SCHEMA');
    }
  });

  it('refuses what it would not check as written', () => {
    const bad: unknown[] = [
      schema({ Company: { type: 'string' } }),
      schema({ company: { type: 'object' } }),
      schema({ company: { type: 'string', format: 'email' } }),
      schema({ company: { type: 'string', pattern: '(' } }),
      schema({ company: { type: 'string', enum: [1, 2] } }),
      schema({ company: { type: 'integer', maxLength: 3 } }),
      schema({ company: { type: 'string' } }, { required: ['missing'] }),
      schema({ company: { type: 'string' } }, { additionalProperties: true }),
      schema({ company: { type: 'string' } }, { allOf: [] }),
      '{"properties": ',
      '[]',
    ];
    for (const value of bad) rejects({ ACCOUNT_PROFILE_SCHEMA: String(value) }, 'ACCOUNT_PROFILE_SCHEMA');
  });

  it('refuses user fields and claims that name no field, or take a claim of the provider', () => {
    const fields = schema({ company: { type: 'string' } });
    rejects({ ACCOUNT_PROFILE_SCHEMA: fields, HEADLESS_USER_FIELDS: 'is_admin' }, 'HEADLESS_USER_FIELDS');
    rejects({ ACCOUNT_PROFILE_SCHEMA: fields, IDP_OIDC_PROFILE_CLAIMS: '{"team": "team"}' }, 'IDP_OIDC_PROFILE_CLAIMS');
    for (const claim of ['sub', 'email', 'email_verified', 'name', 'amr']) rejects({ ACCOUNT_PROFILE_SCHEMA: fields, IDP_OIDC_PROFILE_CLAIMS: JSON.stringify({ company: claim }) }, 'IDP_OIDC_PROFILE_CLAIMS');
    rejects({ ACCOUNT_PROFILE_SCHEMA: fields, IDP_OIDC_PROFILE_CLAIMS: JSON.stringify({ company: { claim: 'org', scope: 'openid' } }) }, 'IDP_OIDC_PROFILE_CLAIMS');
  });

  it('takes first_name and last_name in ACCOUNT_SIGNUP_FIELDS, * marking a required one', () => {
    const config = loadConfig({ SECRET_KEY: SECRET, ACCOUNT_SIGNUP_FIELDS: 'email*,password1*,first_name*,last_name' });
    assert.deepEqual(config.account.signupFields.first_name, { required: true });
    assert.deepEqual(config.account.signupFields.last_name, { required: false });
  });
});
