// Lets Node run this project's TypeScript itself (--experimental-transform-types)
// instead of through tsx: the sources import each other as `./module.js`, as
// NodeNext resolution wants for the compiled output, and this maps such a
// specifier from a .ts module to the .ts file beside it when there is one.
// That is one file check per relative import, in the module's own thread
// (module.registerHooks); tsx's resolver, probing extensions and tsconfig
// paths on every import, was about a third of a CLI process's CPU (profiled
// on Node 24: 0.6 s of 1.9 s).
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

// Node announces its type transform as an experimental feature with a process
// warning, which --disable-warning keeps off stderr but not off the 'warning'
// event the server logs (src/observability/logger.ts): it would be a line in
// every server's log that no deployment writes. Only that notice is dropped.
const emitWarning = process.emitWarning;
process.emitWarning = function (warning, ...rest) {
  if (/^(Transform Types|Type Stripping) is an experimental feature/.test(String(warning))) return;
  return emitWarning.call(this, warning, ...rest);
};

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier.endsWith('.js') && (specifier.startsWith('./') || specifier.startsWith('../')) && context.parentURL?.endsWith('.ts')) {
      const typescript = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
      if (existsSync(fileURLToPath(typescript))) return nextResolve(typescript.href, context);
    }
    return nextResolve(specifier, context);
  },
});
