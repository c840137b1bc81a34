import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { billingCustomers, stripeEvents, subscriptions, users } from '../../db/schema.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type SubscriptionValues = typeof subscriptions.$inferInsert;

/** The queries, usable on the database or inside a transaction. */
function billingQueries(db: Database) {
  async function findCustomerIdOfUser(userId: number): Promise<string | undefined> {
    const [row] = await db.select({ id: billingCustomers.stripeCustomerId }).from(billingCustomers).where(eq(billingCustomers.userId, userId));
    return row?.id;
  }

  return {
    findCustomerIdOfUser,

    async findUserIdOfCustomer(customerId: string): Promise<number | undefined> {
      const [row] = await db.select({ userId: billingCustomers.userId }).from(billingCustomers).where(eq(billingCustomers.stripeCustomerId, customerId));
      return row?.userId;
    },

    /** Links the customer unless the user already has one; answers the user's customer either way (a concurrent first checkout may have won). */
    async linkCustomerIfAbsent(userId: number, customerId: string, at: Date): Promise<string> {
      await db.insert(billingCustomers).values({ userId, stripeCustomerId: customerId, createdAt: at }).onConflictDoNothing({ target: billingCustomers.userId });
      const linked = await findCustomerIdOfUser(userId);
      return linked!;
    },

    /** Makes `customerId` the user's customer, replacing any earlier one. */
    async replaceCustomer(userId: number, customerId: string, at: Date) {
      await db
        .insert(billingCustomers)
        .values({ userId, stripeCustomerId: customerId, createdAt: at })
        .onConflictDoUpdate({ target: billingCustomers.userId, set: { stripeCustomerId: customerId, createdAt: at } });
    },

    async findSubscription(userId: number): Promise<SubscriptionRow | undefined> {
      const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
      return row;
    },

    /** Only a confirmed address proves who owns it, so only confirmed accounts can adopt a payment-link customer. */
    async findConfirmedUserIdByEmail(email: string): Promise<number | undefined> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isNotNull(users.emailConfirmedAt)));
      return row?.id;
    },

    /** Who a billing mail goes to, with the time zone its dates are written in. */
    async recipient(userId: number): Promise<{ email: string; firstName: string; timeZone: string | null } | undefined> {
      const [row] = await db.select({ email: users.email, firstName: users.firstName, timeZone: users.timeZone }).from(users).where(eq(users.id, userId));
      return row;
    },

    async isEventProcessed(eventId: string): Promise<boolean> {
      const [row] = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, eventId));
      return row !== undefined;
    },

    async recordEvent(values: typeof stripeEvents.$inferInsert) {
      await db.insert(stripeEvents).values(values);
    },

    /** Overwrites the user's subscription row; `trialUsed` can only go from false to true. */
    async upsertSubscription(values: SubscriptionValues) {
      const { userId: _userId, ...changes } = values;
      await db
        .insert(subscriptions)
        .values(values)
        .onConflictDoUpdate({
          target: subscriptions.userId,
          set: { ...changes, trialUsed: sql`${subscriptions.trialUsed} or excluded.trial_used` },
        });
    },
  };
}

export type BillingQueries = ReturnType<typeof billingQueries>;

export function createBillingRepository(db: Database) {
  // The access gate runs this on every premium request: prepared once (SQL built once, and parsed and planned once
  // per PostgreSQL connection). Transactions keep the plain query from billingQueries.
  const findSubscriptionStatement = db.select().from(subscriptions).where(eq(subscriptions.userId, sql.placeholder('userId'))).prepare('find_subscription');
  return {
    ...billingQueries(db),

    async findSubscription(userId: number): Promise<SubscriptionRow | undefined> {
      const [row] = await findSubscriptionStatement.execute({ userId });
      return row;
    },

    /**
     * Runs `work` in one transaction that holds a lock on this customer. Syncs of one customer run one after
     * another, so a slow sync that read Stripe earlier can never overwrite what a later one stored; and an
     * event's id is recorded together with its effect, or not at all.
     */
    async withCustomerLock<T>(customerId: string, work: (locked: BillingQueries) => Promise<T>): Promise<T> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`stripe-customer:${customerId}`}, 0))`);
        return work(billingQueries(tx as unknown as Database));
      });
    },
  };
}

export type BillingRepository = ReturnType<typeof createBillingRepository>;
