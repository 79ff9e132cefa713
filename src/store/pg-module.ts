import type pg from 'pg';
import { onFirstUse } from '../kernel/on-first-use.js';

/** node-postgres, loaded when a PostgreSQL database is first opened. */
export const loadPg = onFirstUse<typeof pg>('pg');

/**
 * pg's type parsers, but BIGINT (int8) as a number instead of a string: our
 * bigint columns hold millisecond times, and the reference's ids and counts,
 * all well inside the safe range.
 */
export function int8AsNumber(): pg.CustomTypesConfig {
  const { types } = loadPg();
  return { getTypeParser: (oid: number, format?: any) => (oid === 20 ? (v: string) => Number(v) : types.getTypeParser(oid, format)) };
}
