import { sql, type Kysely } from 'kysely';
import { idColumn } from './columns.js';

// Second factors and the short-lived state of setting them up or using them.
//
// mfa_authenticators holds what django-allauth's mfa_authenticator holds (a
// TOTP secret; a recovery-code seed with the mask of used codes; WebAuthn
// credentials), so its rows can be imported. The values that decide "used
// once" are columns of their own, so a single conditional UPDATE settles a
// race across processes: the last accepted TOTP time step, the used-code
// mask, the WebAuthn signature counter.
//
// mfa_challenges keeps, per session and purpose, the one thing a ceremony in
// progress needs: the TOTP secret offered for activation (sealed) or the
// hash of a WebAuthn challenge. A row goes with its session.
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('mfa_authenticators'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(20)', (c) => c.notNull())
    // TOTP secret or recovery-code seed, sealed at rest; null for WebAuthn.
    .addColumn('secret', 'text')
    .addColumn('used_mask', 'bigint', (c) => c.notNull().defaultTo(0))
    // TOTP: last accepted time step; WebAuthn: signature counter.
    .addColumn('counter', 'bigint')
    .addColumn('credential_id', 'varchar(1024)', (c) => c.unique())
    // JSON: WebAuthn name, public key and transports; recovery codes' viewed_at.
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('mfa_authenticators_user_id').on('mfa_authenticators').column('user_id').execute();
  // At most one TOTP and one set of recovery codes per user, as in the
  // reference: two parallel activations cannot both win.
  await db.schema
    .createIndex('mfa_authenticators_one_per_type')
    .unique()
    .on('mfa_authenticators')
    .columns(['user_id', 'type'])
    .where(sql.ref('type'), '<>', 'webauthn')
    .execute();

  await idColumn(db, db.schema.createTable('mfa_challenges'))
    .addColumn('session_id', 'integer', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('mfa_challenges_session_purpose', ['session_id', 'purpose'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mfa_challenges').execute();
  await db.schema.dropTable('mfa_authenticators').execute();
}
