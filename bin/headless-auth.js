#!/usr/bin/env node
// `headless-auth`, the admin CLI: the compiled src/cli/main.ts, as `npm start`
// runs the compiled server (`npm install` builds dist/; so does `npm run build`).
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('headless-auth: dist/ is missing; run `npm run build` first');
  process.exit(1);
}
await import(main.href);
