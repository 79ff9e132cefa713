import { type Kysely } from 'kysely';

// Users get the reference's name fields (Django's auth_user: first_name and
// last_name, up to 150 characters, blank by default) and the values of the
// deployment's own profile fields (ACCOUNT_PROFILE_SCHEMA) as one JSON
// object, read with the user's row. The admin API filters users by a profile
// field's value; a JSON column cannot be indexed for fields only the settings
// know, so each short value is also kept as a row of user_profile_values,
// written in the same transaction, on an index by field and value.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('first_name', 'varchar(150)', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('users').addColumn('last_name', 'varchar(150)', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('users').addColumn('profile', 'text', (c) => c.notNull().defaultTo('{}')).execute();

  await db.schema
    .createTable('user_profile_values')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('field', 'varchar(64)', (c) => c.notNull())
    .addColumn('value', 'varchar(255)', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_profile_values_pk', ['user_id', 'field'])
    .execute();
  await db.schema.createIndex('user_profile_values_search').on('user_profile_values').columns(['field', 'value', 'user_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_profile_values').execute();
  await db.schema.alterTable('users').dropColumn('profile').execute();
  await db.schema.alterTable('users').dropColumn('last_name').execute();
  await db.schema.alterTable('users').dropColumn('first_name').execute();
}
