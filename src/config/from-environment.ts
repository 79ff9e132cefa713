import { ConfigError, loadConfig, type Config } from './config.js';
import { developmentSecret } from './dev-secret.js';

/** Reads process.env once; a bad setting ends the process with one line naming it. */
export function configFromEnvironment(): Config {
  try {
    const config = loadConfig(process.env);
    return config.secretKey ? config : { ...config, secretKey: developmentSecret(config.dataDir) };
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}
