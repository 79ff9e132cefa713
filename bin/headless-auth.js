#!/usr/bin/env node
// `headless-auth`, the admin CLI: runs src/cli/main.ts through tsx, as
// `npm start` runs the server.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
