// Hand-written analytics data, written straight into the tables a sync fills: connections, daily account metrics,
// content items and their counters. Shared by the analytics and export tests, which check numbers computed by hand
// from these rows.
import type { Database } from '../db/client.ts';
import { accountMetrics, contentItems, contentMetrics, platformConnections } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';

export interface AnalyticsFactoryOptions {
  /** The description given to each content item (none when absent). */
  contentDescription?: (title: string) => string;
}

/** `server` is read at each call, so the helpers can be made before the test server starts in `beforeAll`. */
export function analyticsFactory(server: () => { db: Database; clock: Clock }, { contentDescription }: AnalyticsFactoryOptions = {}) {
  async function insertConnection(userId: number, platform: string, followers: number) {
    const { db, clock } = server();
    const now = clock.now();
    const [row] = await db
      .insert(platformConnections)
      .values({ userId, platform, platformUserId: `${platform}-${userId}`, followers, connectedAt: now, updatedAt: now })
      .returning();
    return row!.id;
  }

  /** One day's account metrics of a connection. */
  async function daily(connectionId: number, date: string, values: Record<string, number>) {
    await server().db.insert(accountMetrics).values(Object.entries(values).map(([metricType, value]) => ({ connectionId, date, metricType, value })));
  }

  /** A content item's counters as read on `asOf` (again, for an item already read). */
  async function readAgain(contentItemId: number, connectionId: number, asOf: string, values: Record<string, number>) {
    await server().db.insert(contentMetrics).values(Object.entries(values).map(([metricType, value]) => ({ contentItemId, connectionId, metricType, asOf, value })));
  }

  /** A content item with its counters as read on `asOf` (published at `publishedAt`, ISO, when given); answers the item's id. */
  async function content(connectionId: number, id: string, title: string, asOf: string, values: Record<string, number>, publishedAt?: string) {
    const [item] = await server()
      .db.insert(contentItems)
      .values({
        connectionId,
        platformContentId: id,
        title,
        ...(contentDescription ? { description: contentDescription(title) } : {}),
        url: `https://example.com/${id}`,
        ...(publishedAt ? { publishedAt: new Date(publishedAt) } : {}),
      })
      .returning();
    await readAgain(item!.id, connectionId, asOf, values);
    return item!.id;
  }

  return { insertConnection, daily, readAgain, content };
}
