import { expect, expectAccessible, test as base, watchPageProblems } from './support/fixtures.ts';
import { startServerProcess, type RunningServer } from './support/server-process.ts';
import { signInWithTrial } from './support/subscribed-user.ts';
import { connectDemoYoutube } from './support/demo-channel.ts';

// Each sandbox platform account links to one Analytics Hub user, and the journeys on the shared worker server use
// YouTube's Maya and Theo; this one connects Ivy Chen's small channel (about 50 videos with early views, posted at
// habitual times) on a server of its own.
const test = base.extend<object, { bestTimesServer: RunningServer }>({
  bestTimesServer: [
    async ({ smtp }, use) => {
      const server = await startServerProcess({ SMTP_URL: smtp.url });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

test.describe('best time to post', () => {
  test('connect a demo channel, see the heatmap, move through it by keyboard, read the best hours', async ({ page, bestTimesServer: server, smtp }) => {
    test.setTimeout(180_000);
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);

    await connectDemoYoutube(page, /Ivy Chen/);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    const panel = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Best time to post' }) });
    await expect(panel.getByRole('combobox', { name: 'Account' })).toHaveValue(/\d+/);
    const grid = panel.getByRole('grid', { name: /^Views against your typical post by weekday and hour/ });
    await expect(grid).toBeVisible({ timeout: 30_000 });
    // A demo channel's older videos count by their lifetime views from the first sync (issue 24).
    await expect(panel.getByText(/Posts over 28 days old: their lifetime views against the 30 posts published nearest to them \(\d+ posts\)/)).toBeVisible();

    // The grid takes one tab stop: the best hour. The arrow keys move from there, and each hour says what it holds.
    const start = grid.locator('[role="gridcell"][tabindex="0"]');
    await start.focus();
    const named = /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{2}:00–\d{2}:00: (\d+(\.\d+)?× typical, \d+ posts|no posts|too few posts to say \(\d+ posts?\))$/;
    const bestName = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(bestName).toMatch(/× typical, \d+ posts$/);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    const movedName = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(movedName).toMatch(named);
    expect(movedName).not.toBe(bestName);
    await expect(grid.locator('[role="gridcell"][tabindex="0"]')).toHaveCount(1);

    // The three best hours in words, each with its interval and number of posts; the first is the grid's start.
    const best = panel.getByRole('listitem').filter({ hasText: / typical \(likely / });
    await expect(best).toHaveCount(3);
    await expect(best.first()).toHaveText(new RegExp(`^${bestName!.split(':')[0]}:00–\\d{2}:00: \\d+\\.\\d× typical \\(likely \\d+\\.\\d+× to \\d+\\.\\d+×, \\d+ posts\\)$`));

    // On a phone the grid scrolls sideways: it opens on the first hour that holds posts, the weekdays kept in view.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(grid).toBeVisible({ timeout: 30_000 });
    const opening = await grid.evaluate((table) => {
      const box = table.parentElement!.getBoundingClientRect();
      const weekdays = table.querySelector('tbody th')!.getBoundingClientRect();
      const cells = [...table.querySelectorAll('[role="gridcell"]')];
      const hours = cells.filter((cell) => !(cell.getAttribute('aria-label') ?? '').endsWith('no posts')).map((cell) => Number(/ (\d{2}):00–/.exec(cell.getAttribute('aria-label') ?? '')![1]));
      const first = Math.min(...hours);
      const cell = table.querySelectorAll('tbody tr:first-child [role="gridcell"]')[first]!.getBoundingClientRect();
      return { first, weekdaysInView: weekdays.left >= box.left - 1, cellInView: cell.left >= weekdays.right - 1 && cell.right <= box.right + 1 };
    });
    expect(opening).toMatchObject({ weekdaysInView: true, cellInView: true });
    await panel.screenshot({ path: test.info().outputPath('best-times-phone.png') });
    // The header's screen name is whole on a phone (Logout keeps its icon there).
    const title = page.locator('header').getByText('Analytics', { exact: true });
    expect(await title.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    await panel.getByRole('button', { name: 'Show as a table' }).click();
    await expect(panel.getByRole('table').filter({ has: page.locator('caption') }).getByRole('row')).not.toHaveCount(1);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
});
