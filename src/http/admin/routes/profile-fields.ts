import { Type } from 'typebox';
import type { ProfileField } from '../../../config/profile.js';
import { adminEndpoint, ok } from '../endpoint.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS } from './common.js';

// The deployment's ACCOUNT_PROFILE_SCHEMA fields, read-only: what a client of
// the admin API (the console's user page among them) needs to show and edit
// a user's `profile` without a copy of the settings.

const Value = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

const AdminProfileField = Type.Object({
  name: Type.String(),
  type: Type.Union([Type.Literal('string'), Type.Literal('integer'), Type.Literal('number'), Type.Literal('boolean')]),
  required: Type.Boolean({ description: 'Signup asks for it, and it cannot be cleared.' }),
  enum: Type.Optional(Type.Array(Value, { description: 'The only values allowed.' })),
  min_length: Type.Optional(Type.Integer()),
  max_length: Type.Optional(Type.Integer()),
  pattern: Type.Optional(Type.String({ description: 'A regular expression (Unicode) a string value must match.' })),
  minimum: Type.Optional(Type.Number()),
  maximum: Type.Optional(Type.Number()),
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
});

function fieldView(field: ProfileField) {
  return {
    name: field.name,
    type: field.type,
    required: field.required,
    ...(field.enum !== undefined ? { enum: field.enum } : {}),
    ...(field.minLength !== undefined ? { min_length: field.minLength } : {}),
    ...(field.maxLength !== undefined ? { max_length: field.maxLength } : {}),
    ...(field.pattern !== undefined ? { pattern: field.pattern } : {}),
    ...(field.minimum !== undefined ? { minimum: field.minimum } : {}),
    ...(field.maximum !== undefined ? { maximum: field.maximum } : {}),
    ...(field.title !== undefined ? { title: field.title } : {}),
    ...(field.description !== undefined ? { description: field.description } : {}),
  };
}

export const profileFields = adminEndpoint({
  method: 'GET',
  path: '/profile-fields',
  tags: ['Users'],
  summary: 'List the custom profile fields',
  description: `The fields ACCOUNT_PROFILE_SCHEMA declares, in its order: the keys a user's \`profile\` may have and the rules \`PATCH /users/{id}\` checks them by. An empty list when none are declared. ${COMMON_ERRORS}`,
  response: responses({ 200: envelope(Type.Array(AdminProfileField)) }),
  run: async (deps) => ok(deps.config.profile.fields.map(fieldView)),
});
