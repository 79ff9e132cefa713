import { ConfigError, readBool, readInt, readString, type Env } from './env.js';

// The admin REST API and console: off unless ADMIN_PORT is set, on a
// listener of its own so that it can stay inside a private network.

export interface AdminSettings {
  /** ADMIN_PORT: the admin listener's port; undefined: no admin API, no console. */
  port: number | undefined;
  /** ADMIN_HOST: its address; loopback unless told otherwise, whatever HOST is. */
  host: string;
  /** ADMIN_CONSOLE_ENABLED: serve the console (and the sign-in it needs) besides the API. */
  console: boolean;
}

/** `taken`: the ports the public and metrics listeners use (0, any free port, clashes with nothing). */
export function readAdminSettings(env: Env, taken: ReadonlyArray<number | undefined>): AdminSettings {
  const port = readString(env, 'ADMIN_PORT', '') === '' ? undefined : readInt(env, 'ADMIN_PORT', 0, { min: 0, max: 65535 });
  if (port !== undefined && port !== 0 && taken.includes(port)) throw new ConfigError(`ADMIN_PORT: ${port} is PORT or METRICS_PORT already; the admin API needs a port of its own`);
  return {
    port,
    host: readString(env, 'ADMIN_HOST', '127.0.0.1'),
    console: readBool(env, 'ADMIN_CONSOLE_ENABLED', true),
  };
}
