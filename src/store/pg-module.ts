import type pg from 'pg';
import { onFirstUse } from '../kernel/on-first-use.js';

/** node-postgres, loaded when a PostgreSQL database is first opened. */
export const loadPg = onFirstUse<typeof pg>('pg');
