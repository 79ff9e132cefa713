import type { Tx } from '../../../store/db.js';
import { readAuthenticators, type SourceAuthenticator } from '../../../store/allauth/mfa-authenticators.js';
import { countRows } from '../../../store/allauth/row-counts.js';
import { findImportRecords, insertImportRecords, type NewImportRecord } from '../../../store/import-records.js';
import { insertRecoveryCodes, insertTotp, insertWebAuthn } from '../../../store/mfa-authenticators.js';
import { sealContext } from '../../../domain/authenticator.js';
import { importedUserIds } from './imported-users.js';
import { recoveryCodesOf, totpSecretOf, webAuthnOf } from './mfa-data.js';
import type { SkipReason } from './summary.js';
import type { ImportRun, ImportStep } from './step.js';

/**
 * MFA authenticators of imported users: a TOTP secret and a recovery-code
 * seed are sealed at rest as this server seals its own, so the same codes
 * keep working (recovery codes used in the source stay used); security keys
 * and passkeys keep their credential. Dates come along.
 */
export const mfaStep: ImportStep = {
  label: 'MFA',
  total: (run) => countRows(run.source, 'mfa_authenticator'),
  async run(run, advance) {
    for (let after = 0; ; ) {
      const rows = await readAuthenticators(run.source, after, run.batchSize);
      if (rows.length === 0) return;
      await importBatch(run, rows);
      after = rows.at(-1)!.id;
      advance(rows.length);
    }
  },
};

async function importBatch(run: ImportRun, rows: SourceAuthenticator[]): Promise<void> {
  await run.db.transaction().execute(async (tx) => {
    const imported = await findImportRecords(tx, run.sourceName, 'mfa_authenticator', rows.map((r) => String(r.id)));
    const owners = await importedUserIds(tx, run, rows.map((r) => r.userId));
    const created: NewImportRecord[] = [];
    for (const row of rows) {
      if (imported.has(String(row.id))) {
        run.summary.alreadyImported('mfa_authenticators');
        continue;
      }
      const userId = owners.get(row.userId);
      const outcome = userId === undefined ? 'user_not_imported' : await importAuthenticator(run, tx, row, userId);
      if (typeof outcome === 'string') {
        run.summary.skipped('mfa_authenticators', outcome);
        continue;
      }
      created.push({ source: run.sourceName, kind: 'mfa_authenticator', sourceId: String(row.id), targetId: outcome, fingerprint: null, importedAt: run.now });
      run.summary.imported('mfa_authenticators');
    }
    await insertImportRecords(tx, created);
  });
}

/** The new authenticator's id, or why the row stays behind. */
async function importAuthenticator(run: ImportRun, tx: Tx, row: SourceAuthenticator, userId: number): Promise<number | SkipReason> {
  if (row.data === null) return 'unreadable';
  const past = { lastUsedAt: row.lastUsedAt };
  const createdAt = row.createdAt ?? run.now;
  switch (row.type) {
    case 'totp': {
      const totp = totpSecretOf(row.data);
      if (typeof totp === 'string') return totp;
      const made = await insertTotp(tx, userId, run.atRest.seal(totp.secret, sealContext('totp', userId)), createdAt, past);
      return made?.id ?? 'type_present_here';
    }
    case 'recovery_codes': {
      const codes = recoveryCodesOf(row.data);
      if (typeof codes === 'string') return codes;
      const sealed = run.atRest.seal(codes.seed, sealContext('recovery_codes', userId));
      const made = await insertRecoveryCodes(tx, userId, sealed, createdAt, { ...past, usedMask: codes.usedMask, viewedAt: codes.viewedAt });
      return made?.id ?? 'type_present_here';
    }
    case 'webauthn': {
      const key = webAuthnOf(row.data);
      if (typeof key === 'string') return key;
      const made = await insertWebAuthn(tx, { userId, ...key, now: createdAt }, past);
      return made?.id ?? 'key_registered_here';
    }
    default:
      return 'unknown_type';
  }
}

