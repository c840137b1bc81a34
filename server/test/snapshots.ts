// Snapshots of what a user owns in the database, to prove that a refused or foreign call changed nothing of it.
import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../db/client.ts';

/**
 * Every row of every table that holds the user's id, or the id of one of their connections, as JSON (the `users` row
 * itself included). Sessions are left out unless asked for: the owner's own requests touch them.
 */
export async function rowsOwnedBy(db: Database, userId: number, { sessions = false }: { sessions?: boolean } = {}) {
  const columns = await queryRows<{ table_name: string; column_name: string }>(
    db,
    sql`select table_name, column_name from information_schema.columns
      where table_schema = 'public' and column_name in ('user_id', 'connection_id') order by table_name, column_name`,
  );
  const connectionIds = (await queryRows<{ id: number }>(db, sql`select id from platform_connections where user_id = ${userId}`)).map((row) => row.id);
  const snapshot: Record<string, unknown[]> = { users: await queryRows(db, sql`select * from users where id = ${userId}`) };
  for (const { table_name: table, column_name: column } of columns) {
    if (table === 'sessions' && !sessions) continue;
    const ids = column === 'user_id' ? [userId] : connectionIds;
    snapshot[`${table}.${column}`] = ids.length
      ? await queryRows(db, sql`select * from ${sql.identifier(table)} where ${sql.identifier(column)} in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) order by 1`)
      : [];
  }
  return JSON.parse(JSON.stringify(snapshot)) as Record<string, unknown[]>;
}
