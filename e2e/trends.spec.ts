// Issues 24 and 25 in a browser: a freshly connected demo YouTube channel and TikTok account, the Dashboard's followers
// and views trends under its cards, Followers Growth with one line per platform, and Metric = Views charting views.
import { expect, expectAccessible, expectNoSidewaysScroll, test, watchPageProblems } from './support/fixtures.ts';
import { signInWithTrial } from './support/subscribed-user.ts';
import { connectDemoYoutube, expectFirstSyncDone } from './support/demo-channel.ts';

test.describe('trends', () => {
  test('the Dashboard draws followers and views trends, Followers Growth a line per platform, Metric = Views charts views', async ({ page, server, smtp }, testInfo) => {
    // Sign-up, checkout, two connections with their first syncs: well over a minute on a busy two-core machine.
    test.setTimeout(240_000);
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);
    await connectDemoYoutube(page, /Theo Park/);
    await page.getByRole('button', { name: /^Connect TikTok/ }).click();
    await page.getByRole('radio', { name: /Theo Park/ }).check();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expect(page.getByText('Successfully connected!')).toBeVisible();
    await expectFirstSyncDone(page);

    await page.goto(`${server.baseUrl}/dashboard`);
    const trends = page.getByRole('region', { name: 'Trends' });
    await expect(trends.getByRole('img', { name: 'Followers per day, last 30 days' })).toBeVisible({ timeout: 30_000 });
    await expect(trends.getByRole('img', { name: 'Views per day, last 30 days' })).toBeVisible();
    // Both platforms have a line of their own (the text alternative names each day's figures).
    const followerDays = trends.getByRole('table', { name: 'Followers per day, last 30 days' }).getByRole('row');
    await expect(followerDays.filter({ hasText: 'YouTube' }).first()).toBeAttached();
    await expect(followerDays.filter({ hasText: 'TikTok' }).first()).toBeAttached();
    await page.screenshot({ path: testInfo.outputPath('dashboard-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath('dashboard-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    await expect(page).toHaveURL(/\/analytics/);
    const growth = page.getByRole('table', { name: 'Followers growth, last 30 days' }).getByRole('row');
    await expect(growth.filter({ hasText: 'YouTube' }).first()).toBeAttached({ timeout: 30_000 });
    await expect(growth.filter({ hasText: 'TikTok' }).first()).toBeAttached();
    // TikTok's history begins with its connection today: the total is drawn from then, and says so.
    await expect(page.getByText(/^Total from [A-Z][a-z]{2} \d{1,2}, \d{4}, when every platform's history begins$/)).toBeVisible();
    await expect(page.getByText(/^Your posts published in the last 30 days/)).toBeVisible();
    const trendCard = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Trends' }) });
    await expect(trendCard.getByRole('img', { name: 'Views per day, last 30 days' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('analytics-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath('analytics-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Metric = Views: the Trends card charts views (the follower and engagement charts have nothing of that name).
    await page.getByLabel('Metric', { exact: true }).selectOption({ label: 'Views' });
    await expect(page).toHaveURL(/metric=views/);
    await expect(trendCard.getByRole('img', { name: 'Views per day, last 30 days' })).toBeVisible();
    await expect(trendCard.getByRole('group', { name: 'Trend to chart' })).toHaveCount(0);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
});
