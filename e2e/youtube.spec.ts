import { expect, expectAccessible, test as base, watchPageProblems } from './support/fixtures.ts';
import { startServerProcess, type RunningServer } from './support/server-process.ts';
import { expectFirstSyncDone } from './support/demo-channel.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

// Each sandbox platform account links to one Analytics Hub user, and the large monetised channel (Maya Lopez, the
// first demo account) is the one the platforms journey connects on the shared worker server. This journey wants
// that channel — hundreds of videos, revenue — so it runs against a server of its own.
const test = base.extend<object, { youtubeServer: RunningServer }>({
  youtubeServer: [
    async ({ smtp }, use) => {
      const server = await startServerProcess({ SMTP_URL: smtp.url });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

test.describe('YouTube analytics', () => {
  test('connect a channel, sync, see the page filled, open a video, generate insights, analyze viral potential', async ({
    page,
    youtubeServer: server,
    smtp,
  }) => {
    test.setTimeout(240_000);
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'YouTube' }).click();
    await expect(page.getByText('YouTube Not Connected')).toBeVisible();
    await page.getByRole('link', { name: 'Connect YouTube Account' }).click();
    await expect(page).toHaveURL(/\/platforms$/);
    await page.getByRole('button', { name: /^Connect YouTube/ }).click();
    await page.getByRole('radio', { name: /Maya Lopez/ }).check();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expect(page.getByText('Successfully connected!')).toBeVisible();
    // Back on Platforms, where the channel's own first sync runs; Sync Latest Data then reads what is new.
    await expectFirstSyncDone(page);

    await page.goto(`${server.baseUrl}/youtube`);
    await expect(page.getByRole('heading', { name: 'YouTube Analytics', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Sync Latest Data' }).click();
    await expect(page.getByRole('button', { name: 'Syncing...' })).toBeVisible();
    // The page refreshes by itself once the sync has finished: no reload.
    await expect(page.getByRole('button', { name: 'Sync Latest Data' })).toBeVisible({ timeout: 180_000 });
    await expect(page.getByText('Sync finished. Your YouTube analytics are up to date.')).toBeVisible();

    const cards = page.getByRole('region', { name: 'Channel summary' });
    await expect(cards.getByRole('definition').first()).not.toHaveText('0');
    const table = page.getByRole('table', { name: /^Video Performance/ });
    await expect(table.getByRole('row')).not.toHaveCount(1);
    await expect(page.getByText(/Showing 1–25 of [\d,]+ videos/)).toBeVisible();
    const revenue = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Revenue Analytics' }) });
    await expect(revenue.getByText('Estimated from views by traffic source')).toBeVisible();
    await expect(revenue.getByRole('img', { name: /Revenue per day/ }).locator('canvas')).toBeVisible();
    const demographics = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Audience Demographics' }) });
    await expect(demographics.getByText('No demographic data available yet')).toHaveCount(0);
    await expect(demographics.getByRole('listitem').first()).toBeVisible();

    // Sorting asks the server and marks the column.
    await table.getByRole('button', { name: /^Views/ }).click();
    await expect(page).toHaveURL(/sort=views/);
    await expect(table.getByRole('columnheader', { name: /^Views/ })).toHaveAttribute('aria-sort', 'descending');

    await table.getByRole('button', { name: /^View details/ }).first().click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('img', { name: /Audience retention/ }).locator('canvas')).toBeVisible({ timeout: 30_000 });
    await expect(dialog.getByRole('list', { name: 'Traffic sources' }).getByRole('listitem').first()).toBeVisible();
    await dialog.getByRole('button', { name: 'Analyze Viral Potential' }).click();
    // A verdict only with enough of the channel's videos to compare with; otherwise that, and nothing beside it (issue 24).
    const meter = dialog.getByRole('meter', { name: 'Viral potential score' });
    const notEnough = dialog.getByText(/^Not enough videos with 28 days of history to compare with \(\d+ of \d+ needed\)\.$/);
    await expect(meter.or(notEnough)).toBeVisible({ timeout: 30_000 });
    if (await notEnough.isVisible()) {
      await expect(meter).toHaveCount(0);
      await expect(dialog.getByText(/viral potential$/)).toHaveCount(0);
    } else {
      await expect(dialog.getByText(/viral potential$/)).toBeVisible();
    }
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(dialog).toBeHidden();

    const insights = page.locator('section').filter({ has: page.getByRole('heading', { name: 'AI-Powered Insights' }) });
    await page.getByRole('button', { name: 'Generate Insights' }).first().click();
    // Only insights whose 95 % interval clears "no difference" are shown, each with its evidence line; when none
    // does, the panel says so in the contract's words.
    await expect(page.getByText(/insights? generated\.$|^Not enough evidence yet: /)).toBeVisible({ timeout: 60_000 });
    if ((await insights.getByRole('listitem').count()) > 0) {
      await expect(insights.getByText(/\d+% confidence/).first()).toBeVisible();
      await expect(insights.getByText(/: .*, 95 % CI [\d.]+–[\d.]+(×| points), n = [\d,]+( vs [\d,]+)?$/).first()).toBeVisible();
    } else {
      await expect(insights.getByText('Not enough evidence yet', { exact: true })).toBeVisible();
    }

    // The choice lives in the URL: the radio is checked once the navigation has happened.
    await revenue.getByRole('radio', { name: '7 days' }).click();
    await expect(page).toHaveURL(/days=7/);
    await expect(revenue.getByRole('radio', { name: '7 days' })).toBeChecked();
    await expect(revenue.getByText(/vs previous 7 days$|no data for previous 7 days$/)).toBeVisible();
    // The cards compare with the previous 7 days too, and say how recent the reports are.
    await expect(cards.getByText(/versus the previous 7 days/).first()).toBeAttached();
    // Behind the cards' one line of notes (issue 25).
    await cards.getByText('About these figures').click();
    await expect(cards.getByText(/^YouTube Analytics complete through /)).toBeVisible();
    await expect(revenue.getByText(/^YouTube revenue complete through /)).toBeVisible();

    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
});
