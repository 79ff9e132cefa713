import type { Tx } from '../../../store/db.js';
import { countUsers, readUsers, type SourceUser } from '../../../store/allauth/users.js';
import { readEmailAddresses, readVerifiedHolders } from '../../../store/allauth/email-addresses.js';
import { findImportRecords, insertImportRecords, type ImportRecord, type NewImportRecord } from '../../../store/import-records.js';
import { deleteUser, findUserByUsername, findUsersByIds, insertImportedUser, setUserAdmin } from '../../../store/users.js';
import type { User } from '../../../domain/user.js';
import { findEmailAddress, insertEmailAddress } from '../../../store/email-addresses.js';
import { passwordScheme } from '../../../security/passwords.js';
import { planAddresses, type AddressPlan, type PlannedAddress } from './address-plan.js';
import { tally } from './summary.js';
import type { ImportFailure, ImportRun, ImportStep } from './step.js';

/** Users from auth_user, each with its addresses, in one transaction per batch. */
export const usersStep: ImportStep = {
  label: 'users',
  total: (run) => countUsers(run.source),
  async run(run, advance) {
    for (let after = 0; ; ) {
      const users = await readUsers(run.source, after, run.batchSize);
      if (users.length === 0) return;
      const failure = await importBatch(run, users);
      if (failure) return failure;
      after = users.at(-1)!.id;
      advance(users.length);
    }
  },
};

interface BatchRecords {
  users: Map<string, ImportRecord>;
  addresses: Map<string, ImportRecord>;
  userEmails: Map<string, ImportRecord>;
  /** Written at the end of the batch, in its transaction. */
  created: NewImportRecord[];
}

async function importBatch(run: ImportRun, users: SourceUser[]): Promise<ImportFailure | undefined> {
  const rows = await readEmailAddresses(run.source, users.map((u) => u.id));
  const unverified = [...rows.filter((r) => !r.verified).map((r) => r.email), ...users.map((u) => u.email).filter(Boolean)];
  const verifiedBy = new Map<string, Set<number>>();
  for (const holder of await readVerifiedHolders(run.source, [...new Set(unverified)])) {
    verifiedBy.set(holder.emailLower, (verifiedBy.get(holder.emailLower) ?? new Set()).add(holder.userId));
  }
  const verifiedByOther = (emailLower: string, userId: number) => [...(verifiedBy.get(emailLower) ?? [])].some((id) => id !== userId);
  const plans = users.map((user) => ({ user, plan: planAddresses(user, rows.filter((r) => r.userId === user.id), verifiedByOther) }));

  return run.db.transaction().execute(async (tx): Promise<ImportFailure | undefined> => {
    const ids = users.map((u) => String(u.id));
    const records: BatchRecords = {
      users: await findImportRecords(tx, run.sourceName, 'user', ids),
      addresses: await findImportRecords(tx, run.sourceName, 'email_address', rows.map((r) => String(r.id))),
      userEmails: await findImportRecords(tx, run.sourceName, 'user_email', ids),
      created: [],
    };
    // Checked before the batch writes anything: under this name, another database's users would be taken for the ones imported before.
    const stranger = users.find((user) => isStranger(user, records.users.get(String(user.id))));
    if (stranger) return { ok: false, reason: 'source_mismatch', sourceUserId: stranger.id };
    // Users imported before, as they are here now (absent: deleted since).
    const locals = await findUsersByIds(tx, [...records.users.values()].map((r) => r.targetId));
    for (const { user, plan } of plans) {
      const record = records.users.get(String(user.id));
      if (record) await revisitUser(run, tx, user, plan, record, locals.get(record.targetId) ?? null, records);
      else await importUser(run, tx, user, plan, records);
    }
    await insertImportRecords(tx, records.created);
    return undefined;
  });
}

function fingerprint(user: SourceUser): string | null {
  return user.dateJoined === null ? null : String(user.dateJoined);
}

/** A source user whose id was imported under this name as a user with another date_joined. */
function isStranger(user: SourceUser, record: ImportRecord | undefined): boolean {
  return record !== undefined && record.fingerprint !== null && fingerprint(user) !== null && record.fingerprint !== fingerprint(user);
}

function recordOf(records: BatchRecords, address: PlannedAddress): ImportRecord | undefined {
  return (address.record.kind === 'email_address' ? records.addresses : records.userEmails).get(address.record.sourceId);
}

function remember(run: ImportRun, records: BatchRecords, kind: NewImportRecord['kind'], sourceId: string, targetId: number, print: string | null = null): void {
  records.created.push({ source: run.sourceName, kind, sourceId, targetId, fingerprint: print, importedAt: run.now });
}

/** A user not imported before: brought over with its addresses, or reported as a conflict. */
async function importUser(run: ImportRun, tx: Tx, user: SourceUser, plan: AddressPlan, records: BatchRecords): Promise<void> {
  const { summary } = run;
  // Django's "!" marks an unusable password: here that is no password at all.
  const passwordHash = user.password === '' || user.password.startsWith('!') ? null : user.password;
  const userId = await insertImportedUser(tx, {
    username: user.username,
    passwordHash,
    isActive: user.isActive,
    createdAt: user.dateJoined ?? run.now,
    lastLoginAt: user.lastLogin,
    firstName: user.firstName,
    lastName: user.lastName,
    now: run.now,
  });
  if (userId === null) {
    // Only the username is unique among the user's own columns.
    const username = user.username ?? '';
    const holder = await findUserByUsername(tx, username);
    return refuse(run, user, plan, { reason: 'username_taken', value: username, localUserId: holder?.id ?? null });
  }
  const added: Array<[PlannedAddress, number]> = [];
  let taken = 0;
  for (const address of plan.addresses) {
    const row = await insertEmailAddress(tx, { userId, email: address.email, primary: address.primary, verified: address.verified, now: run.now });
    if (row) added.push([address, row.id]);
    else if (address.verified || address.primary) {
      // An address the user relies on belongs to someone else here: the user
      // stays out rather than arrive without it.
      const holder = await findEmailAddress(tx, address.email);
      await deleteUser(tx, userId);
      return refuse(run, user, plan, { reason: 'email_taken', value: address.email, localUserId: holder?.userId ?? null });
    } else taken++;
  }
  remember(run, records, 'user', String(user.id), userId, fingerprint(user));
  for (const [address, id] of added) remember(run, records, address.record.kind, address.record.sourceId, id);
  summary.imported('users');
  summary.imported('email_addresses', added.length);
  summary.skipped('email_addresses', 'taken_here', taken);
  for (const reason of plan.skipped) summary.skipped('email_addresses', reason);
  const scheme = passwordScheme(user.password);
  tally(summary.passwordHashes, scheme);
  if (scheme === 'unknown') tally(summary.unverifiableHashes, algorithmName(user.password));
  // Django's staff and superusers administer the site: here that is the admin role.
  if (user.isStaffOrSuperuser) {
    await setUserAdmin(tx, userId, true);
    summary.admins++;
  }
}

/** The hasher a Django hash names ("md5", "sha1", ...), for the summary; never any of the hash itself. */
function algorithmName(password: string): string {
  const name = password.split('$', 1)[0]!;
  return password.includes('$') && /^[a-z0-9_]{1,32}$/.test(name) ? name : 'unrecognised';
}

function refuse(run: ImportRun, user: SourceUser, plan: AddressPlan, conflict: { reason: 'username_taken' | 'email_taken'; value: string; localUserId: number | null }): void {
  run.summary.conflicts.push({ sourceUserId: user.id, username: user.username, ...conflict });
  run.summary.skipped('email_addresses', 'user_not_imported', plan.addresses.length + plan.skipped.length);
}

/**
 * A user imported before: left as it is here (its password, flags and
 * addresses may have changed since), except that addresses added to it in
 * the source since then come over.
 */
async function revisitUser(run: ImportRun, tx: Tx, user: SourceUser, plan: AddressPlan, record: ImportRecord, local: User | null, records: BatchRecords): Promise<void> {
  const { summary } = run;
  const known = plan.addresses.filter((a) => recordOf(records, a)).length;
  if (!local) {
    summary.skipped('users', 'deleted_here');
    summary.skipped('email_addresses', 'deleted_here', known);
    summary.skipped('email_addresses', 'user_not_imported', plan.addresses.length - known + plan.skipped.length);
    return;
  }
  summary.alreadyImported('users');
  summary.alreadyImported('email_addresses', known);
  for (const reason of plan.skipped) summary.skipped('email_addresses', reason);
  let hasPrimary = local.email !== null;
  for (const address of plan.addresses.filter((a) => !recordOf(records, a))) {
    const row = await insertEmailAddress(tx, { userId: local.id, email: address.email, primary: address.primary && !hasPrimary, verified: address.verified, now: run.now });
    if (!row) {
      summary.skipped('email_addresses', 'taken_here');
      continue;
    }
    hasPrimary ||= row.primary;
    remember(run, records, address.record.kind, address.record.sourceId, row.id);
    summary.imported('email_addresses');
  }
}
