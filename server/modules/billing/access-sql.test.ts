// The SQL form of the access rule answers as hasAccess does, for every status and each side of the trial's end and the
// past-due grace, on the database itself.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { subscriptions, users } from '../../db/schema.ts';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { ownerHasAccess } from './access-sql.ts';
import { hasAccess, PAST_DUE_GRACE_MS } from './subscription-state.ts';

const NOW = new Date('2026-12-07T12:00:00Z');
const HOUR = 3_600_000;
const STATUSES = ['active', 'trialing', 'past_due', 'unpaid', 'paused', 'incomplete', 'incomplete_expired', 'canceled', 'none'];
/** Each side of each boundary: an hour before and after now, the grace's end an hour either side. */
const TRIAL_ENDS = [null, new Date(NOW.getTime() - HOUR), new Date(NOW.getTime() + HOUR)];
const PERIOD_STARTS = [null, new Date(NOW.getTime() - PAST_DUE_GRACE_MS - HOUR), new Date(NOW.getTime() - PAST_DUE_GRACE_MS + HOUR)];

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe('ownerHasAccess', () => {
  it('agrees with hasAccess for every status, trial end and period start, and is false without a subscription', async () => {
    const { db } = database.handle;
    const cases = STATUSES.flatMap((status) => TRIAL_ENDS.flatMap((trialEnd) => PERIOD_STARTS.map((currentPeriodStart) => ({ status, trialEnd, currentPeriodStart }))));
    const expected = new Map<number, boolean>();
    for (const [index, row] of cases.entries()) {
      const [user] = await db
        .insert(users)
        .values({ username: `access${index}`, email: `access${index}@example.com`, passwordHash: 'x' })
        .returning({ id: users.id });
      await db.insert(subscriptions).values({ userId: user!.id, stripeCustomerId: `cus_${index}`, status: row.status, trialEnd: row.trialEnd, currentPeriodStart: row.currentPeriodStart, syncedAt: NOW });
      expected.set(user!.id, hasAccess(row, NOW));
    }
    const [without] = await db.insert(users).values({ username: 'nosub', email: 'nosub@example.com', passwordHash: 'x' }).returning({ id: users.id });
    expected.set(without!.id, false);

    const rows = await queryRows<{ id: number; access: boolean }>(db, sql`select u.id, ${ownerHasAccess(sql`u.id`, NOW)} as access from users u`);
    const answered = new Map(rows.map((row) => [Number(row.id), row.access]));
    expect(answered).toEqual(expected);
    // Both answers occur, so the comparison says something.
    expect(new Set(expected.values())).toEqual(new Set([true, false]));
  });
});
