import type { User } from '../../domain/user.js';
import type { FieldError } from '../outcome.js';
import { msg } from '../../i18n/message.js';
import { emailError, normalizeEmail, passwordErrors, usernameError } from '../validate.js';
import { hashPassword } from '../../security/passwords.js';
import { countUsers, createUser, deleteUser, findLastLogin, findUserByEmail, findUserById, findUserByUsername, findUserOverview, isUserAdmin, listUserOverviews, setPasswordHash, setUserActive, setUserAdmin, setUsername, usernameExists, type UserOverview, type UserQuery } from '../../store/users.js';
import { findEmailAddress, listUserEmailAddresses, type EmailAddress } from '../../store/email-addresses.js';
import type { PhoneNumber } from '../../store/phones.js';
import { issueResetKey } from '../password/reset-key.js';
import { findImportOrigin } from '../../store/import-records.js';
import { sendPasswordReset } from '../../messaging/notices.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';
import { endSessions } from './sessions.js';
import { revokeProviderGrants } from '../idp/grant-revocation.js';
import { addressesOf } from './email-addresses.js';
import { phoneOf } from './phones.js';
import type { AdminDeps } from './webhooks.js';
import type { ProfileValue } from '../../domain/user.js';
import { checkProfile, NAME_FIELDS, requiredNames } from '../account/profile-fields.js';
import { saveProfileChange } from '../account/profile-change.js';
import { languageOf } from '../language.js';

// An administrator's changes to an account: creating and deleting it,
// enabling or disabling it, its username, its password (set, or a reset
// link mailed), and the admin role. Each ends the sessions it must at once.
// The CLI and the admin API (http/admin) are two adapters over these.

type MailDeps = Parameters<typeof sendPasswordReset>[0];

/**
 * Disables or enables login. Disabling also ends every session of the user
 * and revokes their grants at the OpenID provider's clients, so that it
 * takes effect at once rather than when those sessions and tokens expire
 * (and enabling the account again revives none of them). Answers how many
 * live sessions it ended.
 */
export async function setActive(deps: AdminDeps, source: AuditSource, user: User, active: boolean): Promise<number> {
  return deps.db.transaction().execute(async (tx) => {
    await setUserActive(tx, user.id, active);
    const ended = active ? 0 : await endAll(tx, user.id, source.now);
    await recordEvent(deps, tx, source, active ? 'account.enabled' : 'account.disabled', { userId: user.id, detail: active ? {} : { sessions: ended } });
    if (!active) await revokeProviderGrants(deps, tx, source, user.id);
    return ended;
  });
}

/**
 * Sets a user's password under the password policy. Like a reset, it ends the
 * user's sessions and revokes their OpenID provider grants (unless
 * `keepSessions`), and voids reset links and codes
 * issued before it. Answers how many live sessions it ended, or what is
 * wrong with the password.
 */
export async function setPassword(
  deps: AdminDeps,
  source: AuditSource,
  user: User,
  password: string,
  keepSessions: boolean,
): Promise<{ ok: true; ended: number } | { ok: false; errors: FieldError[] }> {
  const problems = passwordErrors(deps.config, password, 'password', [user.username, user.email]);
  if (problems.length > 0) return { ok: false, errors: problems };
  const hash = await hashPassword(password);
  return deps.db.transaction().execute(async (tx) => {
    await setPasswordHash(tx, user.id, hash, source.now);
    const ended = keepSessions ? 0 : await endAll(tx, user.id, source.now);
    await recordEvent(deps, tx, source, 'password.changed', { userId: user.id, detail: { sessions: ended } });
    if (!keepSessions) await revokeProviderGrants(deps, tx, source, user.id);
    return { ok: true as const, ended };
  });
}

async function endAll(conn: Parameters<typeof endSessions>[0], userId: number, now: number): Promise<number> {
  const result = await endSessions(conn, userId, 'all', now);
  return result.ok ? result.ended : 0;
}

export interface NewAccount {
  email?: string;
  username?: string;
  /** Checked as the user's own profile changes are (at most 150 characters); none are required here. */
  firstName?: string;
  lastName?: string;
  /** Null: no password (the user sets one through a reset, or never logs in with one). */
  password: string | null;
  /** The address counts as verified from the start. */
  verified: boolean;
}

export type CreateResult = { ok: true; userId: number } | { ok: false; errors: FieldError[] };

/**
 * Creates a user under the rules signup applies (address form, username
 * rules, password policy), with a `signup` event naming the address.
 */
export async function createAccount(deps: AdminDeps, source: AuditSource, input: NewAccount): Promise<CreateResult> {
  const email = input.email === undefined ? undefined : normalizeEmail(input.email);
  const username = input.username?.trim() || undefined;
  if (!email && !username) return { ok: false, errors: [{ code: 'required', param: 'email', message: msg('required.email_or_username') }] };
  const problems: FieldError[] = [];
  const emailProblem = email ? emailError(email) : null;
  if (emailProblem) problems.push(emailProblem);
  const usernameProblem = username ? usernameError(deps.config, username) : null;
  if (usernameProblem) problems.push(usernameProblem);
  if (input.password !== null) problems.push(...passwordErrors(deps.config, input.password, 'password', [username, email]));
  const names = checkProfile(deps.config, { ...(input.firstName === undefined ? {} : { first_name: input.firstName }), ...(input.lastName === undefined ? {} : { last_name: input.lastName }) }, null, { signup: false, requiredNames: new Set() });
  if (!names.ok) problems.push(...names.errors);
  if (problems.length > 0 || !names.ok) return { ok: false, errors: problems };

  const passwordHash = input.password === null ? null : await hashPassword(input.password);
  return deps.db.transaction().execute(async (tx): Promise<CreateResult> => {
    const taken: FieldError[] = [];
    if (username && (await usernameExists(tx, username))) taken.push({ code: 'username_taken', param: 'username' });
    if (email && (await findEmailAddress(tx, email))) taken.push({ code: 'email_taken', param: 'email' });
    if (taken.length > 0) return { ok: false, errors: taken };
    const made = await createUser(tx, { username: username ?? null, email: email ?? null, emailVerified: input.verified, passwordHash, now: source.now, firstName: names.change.firstName, lastName: names.change.lastName });
    // Taken between the check and the insert, by a signup that had not committed.
    if (!made) return { ok: false, errors: [{ code: email ? 'email_taken' : 'username_taken', param: email ? 'email' : 'username' }] };
    await recordEvent(deps, tx, source, 'signup', { userId: made.userId, detail: { ...(email ? { email } : {}) } });
    return { ok: true, userId: made.userId };
  });
}

/** Deletes a user for good (addresses, sessions, keys and OpenID provider grants go with it); false when already gone. */
export async function deleteAccount(deps: AdminDeps, source: AuditSource, user: User): Promise<boolean> {
  return deps.db.transaction().execute(async (tx) => {
    const deleted = await deleteUser(tx, user.id);
    if (deleted) {
      await recordEvent(deps, tx, source, 'account.deleted', { userId: user.id });
      await revokeProviderGrants(deps, tx, source, user.id);
    }
    return deleted;
  });
}

/** Gives or takes the admin role; `changed` is false when the user already was (or was not) an admin. */
export async function setAdmin(deps: AdminDeps, source: AuditSource, user: User, admin: boolean): Promise<{ changed: boolean }> {
  return deps.db.transaction().execute(async (tx) => {
    if ((await isUserAdmin(tx, user.id)) === admin) return { changed: false };
    await setUserAdmin(tx, user.id, admin);
    await recordEvent(deps, tx, source, admin ? 'admin.granted' : 'admin.revoked', { userId: user.id });
    return { changed: true };
  });
}

/**
 * Changes the username (null or "" removes it) under the signup rules for
 * usernames; a `username.changed` event names the new one.
 */
export async function changeUsername(deps: AdminDeps, source: AuditSource, user: User, requested: string | null): Promise<{ ok: true; changed: boolean } | { ok: false; errors: FieldError[] }> {
  const username = requested?.trim() || null;
  if (username !== null) {
    const problem = usernameError(deps.config, username);
    if (problem) return { ok: false, errors: [problem] };
  }
  if (username === user.username) return { ok: true, changed: false };
  return deps.db.transaction().execute(async (tx) => {
    if (!(await setUsername(tx, user.id, username))) return { ok: false as const, errors: [{ code: 'username_taken' as const, param: 'username' }] };
    await recordEvent(deps, tx, source, 'username.changed', { userId: user.id, detail: username === null ? {} : { username } });
    return { ok: true as const, changed: true };
  });
}

export type ResetLinkResult = { ok: true; email: string } | { ok: false; reason: 'no_address' | 'by_code' };

/**
 * Mails the user a password reset link at their primary address; the link
 * works as one they asked for would, and the mail says an administrator
 * sent it (rather than that someone asked). Not with
 * reset by code, which needs the code to be asked for from the browser that
 * then enters it.
 */
export async function sendResetLink(deps: AdminDeps & MailDeps, source: AuditSource, user: User): Promise<ResetLinkResult> {
  if (deps.config.account.passwordReset.byCode) return { ok: false, reason: 'by_code' };
  const address = (await listUserEmailAddresses(deps.db, user.id)).find((a) => a.primary);
  if (!address) return { ok: false, reason: 'no_address' };
  const claims = { userId: user.id, emailAddressId: address.id, issuedAt: source.now };
  const key = issueResetKey(deps.config, claims, { passwordHash: user.passwordHash, lastLoginAt: await findLastLogin(deps.db, user.id), email: address.email });
  // No request of the user's is the sender here: the mail is in the language they last used.
  await sendPasswordReset(deps, languageOf(deps, user), address.email, { key, user, byAdmin: true });
  await recordEvent(deps, deps.db, source, 'password.reset_requested', { userId: user.id, detail: { email: address.email } });
  return { ok: true, email: address.email };
}

/** A user as an administrator sees them, or null. */
export function userOverview(deps: AdminDeps, id: number): Promise<UserOverview | null> {
  return findUserOverview(deps.db, id);
}

export interface UserDetails {
  user: UserOverview;
  addresses: EmailAddress[];
  phone: PhoneNumber | null;
}

/** A user with their addresses and phone number, or null. */
export async function userDetails(deps: AdminDeps, id: number): Promise<UserDetails | null> {
  const user = await findUserOverview(deps.db, id);
  if (!user) return null;
  const phone = await phoneOf(deps, id);
  return { user, addresses: await addressesOf(deps, id), phone };
}

/** The account as the flows see it (for the changes above), or null. */
export function userById(deps: AdminDeps, id: number): Promise<User | null> {
  return findUserById(deps.db, id);
}

/** The account of an address (any of its addresses), or null. */
export function userByEmail(deps: AdminDeps, email: string): Promise<User | null> {
  return findUserByEmail(deps.db, email);
}

export function userByUsername(deps: AdminDeps, username: string): Promise<User | null> {
  return findUserByUsername(deps.db, username);
}

/** Where an imported user came from (`headless-auth import`), or null for one made here. */
export function importOriginOf(deps: AdminDeps, userId: number): Promise<{ source: string; sourceId: string; importedAt: number } | null> {
  return findImportOrigin(deps.db, 'user', userId);
}

/** A page of users by id; see listUserOverviews for the filters. */
export function findUsers(deps: AdminDeps, query: UserQuery): Promise<UserOverview[]> {
  return listUserOverviews(deps.db, query);
}

export { USER_ORDERS, sortKeyOf, type UserOrder, type UserPosition } from '../../store/users.js';

export interface UserPage {
  users: UserOverview[];
  /** Whether more users lie beyond the page in the direction it was read (after it, or before it going back). */
  more: boolean;
  /** How many users match the filters, when asked for. */
  total?: number;
}

/** A page of users in its order, knowing whether another lies beyond it (one user more is read to tell). */
export async function findUserPage(deps: AdminDeps, query: UserQuery, withTotal: boolean): Promise<UserPage> {
  const [found, total] = await Promise.all([listUserOverviews(deps.db, { ...query, limit: query.limit + 1 }), withTotal ? countUsers(deps.db, query) : undefined]);
  const more = found.length > query.limit;
  // A backward page comes in display order: the extra user is its first.
  const users = !more ? found : query.position?.backward ? found.slice(1) : found.slice(0, query.limit);
  return total === undefined ? { users, more } : { users, more, total };
}

/** Whether the user has the admin role (read on every console request: taking the role away takes effect at once). */
export function hasAdminRole(deps: AdminDeps, userId: number): Promise<boolean> {
  return isUserAdmin(deps.db, userId);
}

/**
 * Whether the user is the one active administrator: disabling or deleting
 * themselves from the console would leave it with nobody to sign in, and
 * only the CLI could give the role again.
 */
export async function isSoleActiveAdmin(deps: AdminDeps, userId: number): Promise<boolean> {
  const admins = await listUserOverviews(deps.db, { afterId: 0, limit: 2, active: true, admin: true });
  return admins.length === 1 && admins[0]!.id === userId;
}

export interface ProfileEdit {
  first_name?: string | null;
  last_name?: string | null;
  /** ACCOUNT_PROFILE_SCHEMA fields; null or "" clears one. */
  profile?: Record<string, unknown>;
}

/**
 * Changes the user's names and profile fields under the rules the user's
 * own profile endpoint applies; errors of a profile field name it
 * `profile.<field>`. A `profile.changed` event lists what changed.
 */
export async function changeProfile(deps: AdminDeps, source: AuditSource, user: User, edit: ProfileEdit): Promise<{ ok: true; changed: string[] } | { ok: false; errors: FieldError[] }> {
  const given = Object.entries(edit.profile ?? {});
  const misplaced = given.find(([key]) => (NAME_FIELDS as readonly string[]).includes(key));
  if (misplaced) return { ok: false, errors: [{ code: 'invalid', param: `profile.${misplaced[0]}`, message: msg('invalid.names_beside_profile') }] };
  const body: Record<string, unknown> = Object.fromEntries(given);
  if (edit.first_name !== undefined) body.first_name = edit.first_name;
  if (edit.last_name !== undefined) body.last_name = edit.last_name;
  const checked = checkProfile(deps.config, body, user.profile, { signup: false, requiredNames: requiredNames(deps.config) });
  if (!checked.ok) {
    const names: readonly string[] = NAME_FIELDS;
    return { ok: false, errors: checked.errors.map((e) => (e.param && !names.includes(e.param) ? { ...e, param: `profile.${e.param}` } : e)) };
  }
  return { ok: true, changed: await saveProfileChange(deps, source, user, checked.change) };
}

/**
 * The user list's filter on a profile field, its value read as the field's
 * type (the query string has text only); null when the field is not in
 * ACCOUNT_PROFILE_SCHEMA or the value cannot be of its type.
 */
export function profileFilter(deps: AdminDeps, field: string, raw: string): { field: string; value: ProfileValue } | null {
  const spec = deps.config.profile.fields.find((f) => f.name === field);
  if (!spec) return null;
  if (spec.type === 'string') return { field, value: raw };
  if (spec.type === 'boolean') return raw === 'true' || raw === 'false' ? { field, value: raw === 'true' } : null;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || (spec.type === 'integer' && !Number.isInteger(value))) return null;
  return { field, value };
}
