import type { Conn } from './db.js';

/** The issuer a stored payload was written for (idp_payloads.issuer), or undefined when there is none such. */
export async function payloadIssuer(conn: Conn, model: string, id: string): Promise<string | null | undefined> {
  const row = await conn.selectFrom('idp_payloads').select('issuer').where('model', '=', model).where('id', '=', id).executeTakeFirst();
  return row?.issuer;
}
