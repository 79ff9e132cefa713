import { Type } from 'typebox';
import { settingsInForce } from '../../../flows/admin/settings.js';
import { adminEndpoint, ok } from '../endpoint.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS } from './common.js';

// flows/admin/settings.ts: the settings the server started with, read-only.

const Setting = Type.Object({
  name: Type.String({ description: 'The variable, as docs/settings.md names it.' }),
  set: Type.Boolean({ description: 'false: unset, its documented default applies.' }),
  value: Type.Union([Type.String(), Type.Null()], { description: 'What may be shown of the value; null when unset or hidden whole.' }),
  masked: Type.Boolean({ description: 'Whether any of the value is hidden.' }),
});

export const settings = adminEndpoint({
  method: 'GET',
  path: '/settings',
  tags: ['Settings'],
  summary: 'The settings in force',
  description: `Every documented variable, in groups, with the value this instance read at start-up. Secrets never show: a variable that is one or whose name sounds like one (SECRET, PASSWORD, KEY, TOKEN, ...) is hidden whole unless it is a yes/no or a number, and any value is scrubbed of URL passwords, secret-sounding query parameters and JSON members, and PEM blocks. ${COMMON_ERRORS}`,
  response: responses({ 200: envelope(Type.Array(Type.Object({ id: Type.String({ description: 'The group: server, storage, security, …' }), settings: Type.Array(Setting) }))) }),
  run: async (deps) => ok(settingsInForce(deps.config)),
});
