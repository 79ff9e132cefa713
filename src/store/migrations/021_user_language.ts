import type { Kysely } from 'kysely';

// The language a user last used (a tag of LANGUAGES, such as "de" or
// "pt-BR"), for the mails sent outside their own requests: an
// administrator's password reset, a notice sent later. NULL until their
// first signup or login after this migration: they get LANGUAGE_CODE.
// 35 characters: RFC 5646's advice for a tag buffer.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('language', 'varchar(35)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('language').execute();
}
