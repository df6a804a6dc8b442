import type { Db } from '../../server/db/database';

/** The latest e-mail to an address from the outbox table, and the first link in it. */
export async function latestEmail(db: Db, to: string, kind?: string) {
  let query = db.selectFrom('emails').selectAll().where('toAddress', '=', to).orderBy('createdAt', 'desc').limit(1);
  if (kind) query = query.where('kind', '=', kind);
  const email = await query.executeTakeFirst();
  if (!email) throw new Error(`No e-mail to ${to}`);
  const link = /https?:\/\/\S+/u.exec(email.textBody)?.[0];
  return { ...email, link };
}

export function tokenFrom(link: string | undefined): string {
  if (!link) throw new Error('no link');
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}
