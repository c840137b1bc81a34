// The fingerprint of a user's platform data: it changes whenever anything an analytics answer is computed from
// changes. Every sync updates its connection row in the transaction that writes the metrics (a new row version,
// so a new xmin), and connecting or disconnecting changes the count or the newest id.
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/** A scalar subquery: the fingerprint of the platform data of the user whose id `userId` holds (a column or value). */
export function platformDataFingerprint(userId: SQLWrapper | number): SQL<string> {
  return sql<string>`(select count(*)::text || ':' || coalesce(max(c.id), 0)::text || ':' || coalesce(sum(c.xmin::text::bigint), 0)::text
    from platform_connections c where c.user_id = ${userId})`;
}
