import { countLiveSessions, readLiveSessions, readSessionDetails, type SourceSession, type SourceSessionDetails } from '../../../store/allauth/sessions.js';
import { readPasswordHashes } from '../../../store/allauth/users.js';
import { findImportRecords, insertImportRecords, type ImportRecord, type NewImportRecord } from '../../../store/import-records.js';
import { insertSession, touchSession } from '../../../store/sessions.js';
import { findUsersByIds } from '../../../store/users.js';
import type { User } from '../../../domain/user.js';
import type { Tx } from '../../../store/db.js';
import { hashSecret, sessionKeyDigest } from '../../../security/secrets.js';
import { authHashMatches, authMethods, readDjangoSession, sessionUserId } from './django-session.js';
import type { SkipReason } from './summary.js';
import type { ImportRun, ImportStep } from './step.js';

/**
 * Live Django sessions, so that users stay logged in across the move: a
 * browser's sessionid cookie and an app's session token are the session key,
 * which keeps working here. Only sessions Django itself would still accept
 * come over: signed with its SECRET_KEY, of an active user, bound to the
 * user's current password.
 */
export const sessionsStep: ImportStep = {
  label: 'sessions',
  total: (run) => countLiveSessions(run.source, run.now),
  async run(run, advance) {
    if (run.djangoSecretKeys.length === 0) {
      const live = await countLiveSessions(run.source, run.now);
      run.summary.skipped('sessions', 'no_secret_key', live);
      advance(live);
      return;
    }
    for (let after = ''; ; ) {
      const sessions = await readLiveSessions(run.source, after, run.batchSize, run.now);
      if (sessions.length === 0) return;
      await importBatch(run, sessions);
      after = sessions.at(-1)!.key;
      advance(sessions.length);
    }
  },
};

async function importBatch(run: ImportRun, sessions: SourceSession[]): Promise<void> {
  const decoded = sessions.map((session) => ({ session, keyHash: hashSecret(session.key), read: readDjangoSession(session.data, run.djangoSecretKeys) }));
  const userIds = [...new Set(decoded.flatMap(({ read }) => (read.ok ? [sessionUserId(read.data)] : [])).filter((id): id is number => id !== null))];
  const passwordHashes = await readPasswordHashes(run.source, userIds);
  const details = await readSessionDetails(run.source, sessions.map((s) => s.key));

  await run.db.transaction().execute(async (tx) => {
    const imported = await findImportRecords(tx, run.sourceName, 'session', decoded.map((d) => d.keyHash));
    const users = await findImportRecords(tx, run.sourceName, 'user', userIds.map(String));
    const locals = await findUsersByIds(tx, [...users.values()].map((r) => r.targetId));
    const created: NewImportRecord[] = [];
    for (const { session, keyHash, read } of decoded) {
      if (imported.has(keyHash)) {
        run.summary.alreadyImported('sessions');
        continue;
      }
      const outcome = read.ok ? await importSession(run, tx, session, read.data, { users, locals, passwordHashes, details }) : read.reason;
      if (typeof outcome === 'string') {
        run.summary.skipped('sessions', outcome);
        continue;
      }
      created.push({ source: run.sourceName, kind: 'session', sourceId: keyHash, targetId: outcome, fingerprint: null, importedAt: run.now });
      run.summary.imported('sessions');
    }
    await insertImportRecords(tx, created);
  });
}

interface BatchLookups {
  users: Map<string, ImportRecord>;
  /** The imported users as they are here now, by id. */
  locals: Map<number, User>;
  passwordHashes: Map<number, string>;
  details: Map<string, SourceSessionDetails>;
}

/** The new session's id, or why the session stays behind. */
async function importSession(run: ImportRun, tx: Tx, session: SourceSession, data: Record<string, unknown>, lookups: BatchLookups): Promise<number | SkipReason> {
  const sourceUserId = sessionUserId(data);
  if (sourceUserId === null) return 'not_logged_in';
  const record = lookups.users.get(String(sourceUserId));
  const user = record ? lookups.locals.get(record.targetId) : undefined;
  if (!record || !user) return 'user_not_imported';
  if (!user.isActive) return 'user_inactive';
  if (user.passwordChangedAt > record.importedAt) return 'password_changed_here';
  const passwordHash = lookups.passwordHashes.get(sourceUserId);
  if (passwordHash === undefined || !authHashMatches(data, passwordHash, run.djangoSecretKeys)) return 'auth_hash_mismatch';

  // allauth.usersessions, when installed, knows where and when the session was used.
  const detail = lookups.details.get(session.key);
  const created = await insertSession(tx, {
    keyDigest: sessionKeyDigest(session.key),
    userId: user.id,
    methods: authMethods(data),
    flow: null,
    now: detail?.createdAt ?? run.now,
    expiresAt: session.expiresAt,
    ip: (detail?.ip ?? '').slice(0, 64),
    userAgent: (detail?.userAgent ?? '').slice(0, 512),
  });
  if (detail && detail.lastSeenAt > detail.createdAt) await touchSession(tx, created.id, detail.lastSeenAt, session.expiresAt);
  return created.id;
}
