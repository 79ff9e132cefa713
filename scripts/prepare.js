// `npm install` in a checkout builds dist/, so that `npm start` runs compiled
// JavaScript. An install without dev dependencies (`npm ci --omit=dev`) has
// no compiler: it keeps the dist/ it was shipped with, and says so when
// there is none.
//
// `npx headless-auth` in a checkout links the checkout into npm's npx cache
// the first time, which runs this script too (npm_command is then `exec`):
// that run must not rebuild dist/ under a running server, nor take the time
// of a build; the CLI runs the dist/ there is, as it is.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

if (process.env.npm_command === 'exec') process.exit(0);

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  if (existsSync('dist/main.js')) process.exit(0);
  console.error('headless-auth: no dist/ and no TypeScript compiler; install with dev dependencies and run `npm run build`');
  process.exit(1);
}
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
