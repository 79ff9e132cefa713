import { ConfigError, loadConfig, type Config } from './config.js';
import { developmentSecret } from './dev-secret.js';
import { createLogger } from '../observability/logger.js';

/** Reads process.env once; a bad setting ends the process with one JSON line naming it. */
export function configFromEnvironment(): Config {
  try {
    const config = loadConfig(process.env);
    return config.secretKey ? config : { ...config, secretKey: developmentSecret(config.dataDir) };
  } catch (error) {
    if (error instanceof ConfigError) exitOnConfigError(error);
    throw error;
  }
}

/** Logged at the default level: the configured one may be what failed. */
export function exitOnConfigError(error: ConfigError): never {
  createLogger('info').fatal({ setting_error: error.message }, `Configuration error: ${error.message}`);
  process.exit(2);
}
