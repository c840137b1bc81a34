// The access rule (contract/billing.ts hasValidAccess, fed by subscription-state.ts hasAccess) as an SQL condition,
// for background work that must stop when an account's access does: the sync scheduler and the young-post poll pick
// only connections whose owner may use the product, so an ended trial or subscription spends no platform quota.
// access-sql.test.ts holds it to hasAccess over every status.
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { PAST_DUE_GRACE_MS } from './subscription-state.ts';

/** True where the user whose id `userId` is has valid access at `now`. */
export type OwnerHasAccess = (userId: SQLWrapper, now: Date) => SQL;

export const ownerHasAccess: OwnerHasAccess = (userId, now) => {
  const at = now.toISOString();
  return sql`exists (select 1 from subscriptions s where s.user_id = ${userId} and (
    s.status in ('active', 'trialing')
    or (s.status not in ('canceled', 'incomplete_expired') and (
      (s.status = 'past_due' and s.current_period_start + make_interval(secs => ${PAST_DUE_GRACE_MS / 1000}) > ${at}::timestamptz)
      or s.trial_end > ${at}::timestamptz))))`;
};
