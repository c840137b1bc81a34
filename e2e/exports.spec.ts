import { readFile } from 'node:fs/promises';
import { expect, expectAccessible, expectNoSidewaysScroll, test, watchPageProblems } from './support/fixtures.ts';
import { signInWithTrial } from './support/subscribed-user.ts';
import { connectDemoYoutube, expectFirstSyncDone } from './support/demo-channel.ts';

test.describe('exports', () => {
  test('connect Instagram, Sync Data, then download the Analytics data as CSV and as a PDF report', async ({ page, server, smtp }, testInfo) => {
    // Sign-up, checkout, connect, sync and two downloads: well over a minute on a busy two-core machine.
    test.setTimeout(180_000);
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);

    await page.getByRole('link', { name: 'Platforms' }).click();
    await page.getByRole('button', { name: /^Connect Instagram/ }).click();
    // Each platform account links to one Analytics Hub user: other journeys use YouTube, TikTok and LinkedIn
    // (and their first two demo accounts), so this one takes Instagram's third.
    await page.getByRole('radio', { name: /Ivy Chen/ }).check();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expect(page.getByText('Successfully connected!')).toBeVisible();
    // The connection's own first sync.
    await expectFirstSyncDone(page, 60_000);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    await expect(page).toHaveURL(/\/analytics/);
    await expect(page.getByText('No followers data available')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByRole('img', { name: /Followers/i }).first()).toBeVisible();

    const exportGroup = page.getByRole('group', { name: 'Export', exact: true });
    await expect(exportGroup).toBeVisible();
    const [csv] = await Promise.all([page.waitForEvent('download'), exportGroup.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(csv.suggestedFilename()).toMatch(/^analytics-hub-last-30-days-\d{4}-\d{2}-\d{2}\.csv$/);
    await expect(page.getByRole('status').filter({ hasText: `Downloaded ${csv.suggestedFilename()}` })).toBeVisible();
    const bytes = await readFile((await csv.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('Date,Platform,Metric,Value,Content title,Derived');
    expect(lines.at(-1)).toBe('');
    const records = lines.slice(1, -1).map((line) => line.split(','));
    expect(records.length).toBeGreaterThan(10);
    for (const [date, platform, metric, value] of records) {
      expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(platform).toBe('Instagram');
      expect(metric).toMatch(/^[a-z_]+$/);
      expect(Number.isFinite(Number(value))).toBe(true);
    }
    expect(records.some(([, , metric]) => metric === 'followers')).toBe(true);
    // Instagram's follower history is ours, from each day's follows minus unfollows: the file says so.
    for (const [, , metric, , , derived] of records.filter(([, , metric]) => metric === 'followers')) expect(derived, metric).toBe('from daily follows minus unfollows');

    // With a filter: the file follows it, and the report is a PDF.
    await page.getByLabel('Date Range', { exact: true }).selectOption('7');
    await expect(page).toHaveURL(/days=7/);
    const [pdf] = await Promise.all([page.waitForEvent('download'), exportGroup.getByRole('button', { name: 'Export PDF' }).click()]);
    expect(pdf.suggestedFilename()).toMatch(/^analytics-hub-last-7-days-\d{4}-\d{2}-\d{2}\.pdf$/);
    expect((await readFile((await pdf.path())!)).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    await expectAccessible(page);
    await page.screenshot({ path: testInfo.outputPath('analytics-export-desktop.png') });

    // A phone: the export buttons stay on screen and nothing scrolls sideways.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(exportGroup.getByRole('button', { name: 'Export JSON' })).toBeInViewport();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath('analytics-export-phone.png') });
    expect(problems).toEqual([]);
  });

  test('export the YouTube Video Performance table as CSV', async ({ page, server, smtp }, testInfo) => {
    test.setTimeout(240_000);
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);
    // Other journeys connect YouTube's first two demo accounts: this one takes the third.
    // Connected, and synced by the connection's own first sync.
    await connectDemoYoutube(page, /Ivy Chen/);

    await page.goto(`${server.baseUrl}/youtube`);
    const table = page.getByRole('table', { name: /^Video Performance/ });
    await expect(table.getByRole('row')).not.toHaveCount(1);
    const shown = await page.getByText(/Showing 1–\d+ of [\d,]+ videos/).textContent();
    const total = Number(/of ([\d,]+) videos/.exec(shown ?? '')![1]!.replaceAll(',', ''));

    const exportGroup = page.getByRole('group', { name: 'Export' });
    const [csv] = await Promise.all([page.waitForEvent('download'), exportGroup.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(csv.suggestedFilename()).toMatch(/^analytics-hub-youtube-videos-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile((await csv.path())!)).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('\uFEFFVideo ID,Title,Published,URL,Views,Watch time (minutes),Likes,Comments,Engagement rate (%),Estimated revenue (USD),Estimated ad revenue (USD),CPM (USD),Impressions,Click-through rate (%),Average percentage viewed (%),Estimated fields');
    expect(lines.at(-1)).toBe('');
    // Every video, not the 25 of the table's first page.
    expect(lines.length - 2).toBe(total);
    await page.screenshot({ path: testInfo.outputPath('youtube-export-desktop.png') });
    expect(problems).toEqual([]);
  });
});
