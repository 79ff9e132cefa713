import { configFromEnvironment } from './config/from-environment.js';
import { closeDatabase, migrateToLatest, openDatabase } from './store/db.js';

// `npm run migrate`: applies pending migrations and exits. The server also
// migrates at start-up; this is for deployments that migrate as a separate step.
const config = configFromEnvironment();
const db = openDatabase(config.databaseUrl);
try {
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
} finally {
  await closeDatabase(db);
}
