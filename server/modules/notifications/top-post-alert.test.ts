// Issue 15, alerts (decision 018): the top 10 % post alert on the real server and database. After a sync or a
// young-post read, a post whose 24-hour (7-day, 28-day) moment passed since the last look is benchmarked against the
// creator's own posts; in their top 10 % it gets one notice and one email, once per post ever, whichever process
// gets there first; never another user's post, never with the alert off, never against fewer than 10 posts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRatio } from '#contract/benchmark.ts';
import type { Notification } from '#contract/notifications.ts';
import { contentItems, contentMetricReads, contentMetrics, platformConnections } from '../../db/schema.ts';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../../test/test-server.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true });
});
afterAll(async () => {
  await server?.close();
});

/**
 * A TikTok creator: `comparables` posts published at midnight on Oct 1, 2, … with 100 + k views at 24 hours (their
 * publishing day's read stands at its end), and the post under test published 25 hours before now, read at 23.5 and
 * 24.5 hours with `views` both times.
 */
async function creator(account: Account, { comparables = 12, views = 5000, url = 'https://www.tiktok.com/@creator/video/7380080137682881835' }: { comparables?: number; views?: number; url?: string } = {}) {
  const now = server.clock.now();
  const [connection] = await server.db
    .insert(platformConnections)
    .values({ userId: account.user.id, platform: 'tiktok', platformUserId: `tiktok-${account.user.id}`, platformUsername: 'creator', followers: 0, connectedAt: now, updatedAt: now })
    .returning();
  const connectionId = connection!.id;
  for (let k = 0; k < comparables; k += 1) {
    const publishedAt = new Date(Date.UTC(2026, 9, 1 + k));
    const [item] = await server.db.insert(contentItems).values({ connectionId, platformContentId: `old-${k}`, title: `Old ${k}`, publishedAt }).returning();
    await server.db.insert(contentMetrics).values({ contentItemId: item!.id, connectionId, metricType: 'views', asOf: publishedAt.toISOString().slice(0, 10), value: 100 + k });
  }
  const publishedAt = new Date(now.getTime() - 25 * HOUR);
  const [target] = await server.db
    .insert(contentItems)
    .values({ connectionId, platformContentId: 'new', title: 'My best take', publishedAt, url })
    .returning();
  await server.db.insert(contentMetricReads).values(
    [23.5, 24.5].map((hours) => ({ contentItemId: target!.id, metricType: 'views', readAt: new Date(publishedAt.getTime() + hours * HOUR), value: views })),
  );
  // The median of 100 … 100 + comparables - 1.
  const median = 100 + (comparables - 1) / 2;
  return { connectionId, targetId: target!.id, median };
}

async function notices(account: Account): Promise<Notification[]> {
  const response = await server.request('GET', '/api/notifications', { token: account.token });
  expect(response.status).toBe(200);
  return response.body.notifications;
}

const topPostMails = (account: Account) => server.smtp.messages.filter((mail) => mail.to.includes(account.email) && /top 10\u00a0%/.test(mail.subject));

describe('the top 10 % post alert', () => {
  it('one notice and one email when a post reaches an age in the creator’s top 10 %, and never again for that post', async () => {
    const alice = await signUpWithAccess(server);
    const { connectionId, median } = await creator(alice);
    // Two processes (a sync and a young-post read) finishing at once: one evaluation, one alert.
    const [first, second] = await Promise.all([server.notifications.postsMatured({ connectionId }), server.notifications.postsMatured({ connectionId })]);
    expect(first + second).toBe(1);
    const sentence = `“My best take” is in your top 10\u00a0% of TikTok videos at 24 hours: ${formatRatio(5000 / median)} your typical (n = 12).`;
    const list = await notices(alice);
    expect(list).toEqual([
      expect.objectContaining({ kind: 'topPost', title: '“My best take” is in your top 10\u00a0%', body: sentence, connectionId, platform: 'tiktok', url: 'https://www.tiktok.com/@creator/video/7380080137682881835', readAt: null }),
    ]);
    const mails = topPostMails(alice);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('“My best take” is in your top 10\u00a0% at 24 hours');
    expect(mails[0]!.text).toContain(sentence);
    expect(mails[0]!.text).toContain('Open it on TikTok: https://www.tiktok.com/@creator/video/7380080137682881835');
    expect(mails[0]!.text).toMatch(new RegExp(`${TEST_PUBLIC_URL}/unsubscribe\\?token=[^\\s&]+&topic=alert%3AtopPost`));
    expect(mails[0]!.parsed.headerLines.find((header) => header.key === 'list-unsubscribe')?.line).toMatch(/<[^>]+>/);
    expect(mails[0]!.parsed.headerLines.find((header) => header.key === 'list-unsubscribe-post')?.line).toMatch(/List-Unsubscribe=One-Click/);

    // Later looks: the 24-hour moment is behind the mark, and the post's 7-day moment brings no second alert.
    expect(await server.notifications.postsMatured({ connectionId })).toBe(0);
    server.clock.advance(7 * DAY);
    expect(await server.notifications.postsMatured({ connectionId })).toBe(0);
    expect(await notices(alice)).toHaveLength(1);
    expect(topPostMails(alice)).toHaveLength(1);
  });

  it('never about another user’s post: each creator hears of their own', async () => {
    const [bob, carol] = [await signUpWithAccess(server), await signUpWithAccess(server)];
    const bobs = await creator(bob);
    const carols = await creator(carol);
    expect(await server.notifications.postsMatured({ connectionId: bobs.connectionId })).toBe(1);
    expect(await notices(carol)).toEqual([]);
    expect(await server.notifications.postsMatured({ connectionId: carols.connectionId })).toBe(1);
    const [bobNotice] = await notices(bob);
    const [carolNotice] = await notices(carol);
    expect(bobNotice!.connectionId).toBe(bobs.connectionId);
    expect(carolNotice!.connectionId).toBe(carols.connectionId);
    expect(await notices(bob)).toHaveLength(1);
  });

  it('nothing with the alert turned off, and turning it back on does not bring up the moment that passed', async () => {
    const dave = await signUpWithAccess(server);
    const { connectionId } = await creator(dave);
    expect((await server.request('PATCH', '/api/settings/alerts', { token: dave.token, body: { topPost: false } })).status).toBe(200);
    expect(await server.notifications.postsMatured({ connectionId })).toBe(0);
    expect((await server.request('PATCH', '/api/settings/alerts', { token: dave.token, body: { topPost: true } })).status).toBe(200);
    expect(await server.notifications.postsMatured({ connectionId })).toBe(0);
    expect(await notices(dave)).toEqual([]);
    expect(topPostMails(dave)).toEqual([]);
  });

  it('nothing against fewer than 10 of the creator’s posts, nor below the 90th percentile', async () => {
    const erin = await signUpWithAccess(server);
    const few = await creator(erin, { comparables: 9 });
    expect(await server.notifications.postsMatured({ connectionId: few.connectionId })).toBe(0);
    const frank = await signUpWithAccess(server);
    // 108 views at 24 hours: above 8 of the 12 (100…107) and equal to one: the 71st percentile.
    const middling = await creator(frank, { views: 108 });
    expect(await server.notifications.postsMatured({ connectionId: middling.connectionId })).toBe(0);
    expect([...(await notices(erin)), ...(await notices(frank))]).toEqual([]);
  });

  it('links only to a web address: a post address that is not one leads to the analytics instead', async () => {
    const gina = await signUpWithAccess(server);
    const { connectionId } = await creator(gina, { url: 'javascript:alert(1)' });
    expect(await server.notifications.postsMatured({ connectionId })).toBe(1);
    expect((await notices(gina))[0]).toMatchObject({ kind: 'topPost', url: null });
    expect(topPostMails(gina)[0]!.text).toContain(`Open your analytics: ${TEST_PUBLIC_URL}/analytics`);
    expect(topPostMails(gina)[0]!.text).not.toContain('javascript:');
  });
});
