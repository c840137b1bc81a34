import { readFile } from 'node:fs/promises';
import { CONTENT_CSV_COLUMNS } from '../contract/content.ts';
import { expect, expectAccessible, expectNoSidewaysScroll, test, watchPageProblems } from './support/fixtures.ts';
import { expectFirstSyncDone } from './support/demo-channel.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

test.describe('posts table', () => {
  test('connect Instagram and Twitter, sync, then sort, filter and export every post against the typical one', async ({ page, server, smtp }, testInfo) => {
    // Sign-up, checkout, two connections, a sync and a download: well over a minute on a busy two-core machine.
    test.setTimeout(240_000);
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);

    // Each platform account links to one Analytics Hub user: other journeys on this server take Instagram's Ivy
    // Chen and Theo Park and no Twitter account, so this one takes Instagram's Maya Lopez and Twitter's Theo Park.
    await page.getByRole('link', { name: 'Platforms' }).click();
    for (const [platform, persona] of [
      ['Instagram', /Maya Lopez/],
      ['Twitter', /Theo Park/],
    ] as const) {
      await page.getByRole('button', { name: new RegExp(`^Connect ${platform}`) }).click();
      await page.getByRole('radio', { name: persona }).check();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await expect(page.getByText('Successfully connected!')).toBeVisible();
      // Back on Platforms, where the connection's own first sync runs.
      await expectFirstSyncDone(page);
    }

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    await expect(page).toHaveURL(/\/analytics/);
    const panel = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Posts', exact: true }) });
    const table = panel.getByRole('table');
    await expect(table).toBeVisible({ timeout: 30_000 });
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBeGreaterThan(1);
    await expect(panel.getByText(/^Showing 1–\d+ of [\d,]+ posts/)).toBeVisible();
    // Every row says how it compares, or why it cannot.
    const typical = /your typical at|old yet|No reading at|Not enough posts to compare/;
    for (const cell of await rows.locator('td:last-child').all()) await expect(cell).toHaveText(typical);
    await expect(table.getByRole('columnheader', { name: /^Post/ })).toHaveAttribute('aria-sort', 'descending');

    // Sort by views: the server's order, most first; a second click flips it.
    const viewsHeader = table.getByRole('columnheader', { name: /^Views/ });
    await viewsHeader.getByRole('button').click();
    await expect(page).toHaveURL(/postsSort=views/);
    await expect(viewsHeader).toHaveAttribute('aria-sort', 'descending');
    await expect(table).not.toHaveClass(/opacity-60/);
    const views = async () =>
      (await rows.locator('td:nth-child(2) [title]').evaluateAll((cells) => cells.map((cell) => Number(cell.getAttribute('title')!.replaceAll(',', '')))));
    const descending = await views();
    expect(descending.length).toBeGreaterThan(1);
    expect(descending).toEqual([...descending].sort((a, b) => b - a));
    await viewsHeader.getByRole('button').click();
    await expect(viewsHeader).toHaveAttribute('aria-sort', 'ascending');
    await expect(page).toHaveURL(/postsOrder=asc/);
    await expect(table).not.toHaveClass(/opacity-60/);
    const ascending = await views();
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));

    // One platform: every row is a Twitter post, and the choice is in the URL.
    await panel.getByLabel('Show posts from').selectOption({ label: 'Twitter' });
    await expect(page).toHaveURL(/postsPlatform=twitter/);
    await expect(table).not.toHaveClass(/opacity-60/);
    await expect(rows.first().getByRole('rowheader')).toContainText('Twitter');
    for (const header of await rows.getByRole('rowheader').all()) await expect(header).toContainText('Twitter');

    // The CSV holds the filtered posts in the table's order, with the sentence and ratio columns.
    const exportGroup = panel.getByRole('group', { name: 'Export posts' });
    const [csv] = await Promise.all([page.waitForEvent('download'), exportGroup.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(csv.suggestedFilename()).toMatch(/^analytics-hub-posts-twitter-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = await readFile((await csv.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe(CONTENT_CSV_COLUMNS.join(','));
    expect(lines.at(-1)).toBe('');
    expect(lines.length - 2).toBeGreaterThanOrEqual(await rows.count());
    expect(lines[1]).toMatch(/^\d+,Twitter,/);
    expect(lines[1]).toMatch(typical);

    await expectAccessible(page);
    await panel.scrollIntoViewIfNeeded();
    await page.setViewportSize({ width: 1280, height: 900 });
    await panel.screenshot({ path: testInfo.outputPath('posts-desktop.png') });
    // A phone: the table scrolls inside its own region; the page does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await panel.screenshot({ path: testInfo.outputPath('posts-phone.png') });
    expect(problems).toEqual([]);
  });
});
