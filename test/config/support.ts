import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config/config.js';

export const SECRET = 'test-secret-key-that-is-long-enough-0123456789';

/** Asserts that loading `env` fails with a ConfigError naming `variable`. */
export function rejects(env: Record<string, string>, variable: string): void {
  assert.throws(
    () => loadConfig({ SECRET_KEY: SECRET, ...env }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
      assert.ok(error.message.includes(variable), `"${error.message}" does not name ${variable}`);
      return true;
    },
  );
}
