import { expect, expectAccessible, test, watchPageProblems } from './support/fixtures.ts';
import { signInWithTrial } from './support/subscribed-user.ts';
import { connectDemoYoutube } from './support/demo-channel.ts';

test.describe('sync and analytics', () => {
  test('connect YouTube, Sync Data, see the dashboard numbers and the four analytics charts, filter and clear', async ({ page, server, smtp }) => {
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);

    // Each platform account links to one Analytics Hub user; other journeys on this server use the first
    // demo account, so this one picks the second.
    await connectDemoYoutube(page, /Theo Park/);

    await page.goto(`${server.baseUrl}/dashboard`);
    await expect(page.getByRole('heading', { name: 'Dashboard', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Sync Data' }).click();
    await expect(page.getByText('Syncing...')).toBeVisible();
    // The numbers update by themselves once the sync finishes: no reload.
    await expect(page.getByText('Syncing...')).toHaveCount(0, { timeout: 60_000 });
    const main = page.getByRole('main');
    await expect(main.getByText(/subscribers/)).toBeVisible();
    await expect(main.getByText(/^\d+(\.\d)?%$/).first()).toBeVisible({ timeout: 30_000 });

    // Each card's change against the previous 30 days, read out in words (the channel's history reaches back two
    // years). Connected Platforms has none: connecting one is not growth (issue 24).
    const cards = page.getByRole('region', { name: 'Summary' });
    const changeWords = /^(up|down) \d+\.\d (per cent|percentage points) versus the previous 30 days$|^no change versus the previous 30 days$/;
    await expect(cards.getByText(changeWords).first()).toBeAttached();
    await expect(cards.getByText(/platforms? versus/)).toHaveCount(0);
    await expect(cards.getByText(/vs previous 30 days$/).first()).toBeVisible();
    // The notes under the cards are one line that opens to all of them (issue 25).
    await cards.locator('details > summary').click();
    await expect(cards.getByRole('list', { name: 'How recent these figures are' }).getByRole('listitem')).toHaveText([
      /^YouTube complete through [A-Z][a-z]{2} \d{1,2}, \d{4} · synced (just now|\d+ minutes? ago)$/,
    ]);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    await expect(page).toHaveURL(/\/analytics/);
    for (const empty of ['No followers data available', 'No engagement data available', 'No platform data available', 'No content data available']) {
      await expect(page.getByText(empty)).toHaveCount(0, { timeout: 30_000 });
    }
    await expect(page.getByRole('img', { name: /Followers/i }).first()).toBeVisible();
    await expect(page.getByText('#1')).toBeVisible();

    // The cards follow the filters and compare with the period the filter names; the chart overlays it, dashed.
    const summary = page.getByRole('region', { name: 'Summary' });
    await expect(summary.getByText(changeWords).first()).toBeAttached();
    // The comparison period's line in a legend (the Trends card and Followers Growth each draw one).
    await expect(page.getByText('Previous 30 days', { exact: true }).first()).toBeVisible();
    await page.getByLabel('Compare to', { exact: true }).selectOption({ label: 'Same period last year' });
    await expect(page).toHaveURL(/compare=year/);
    await expect(summary.getByText(/versus the same period last year/).first()).toBeAttached();
    await expect(summary.getByText(/vs same period last year$/).first()).toBeVisible();
    await page.getByLabel('Compare to', { exact: true }).selectOption({ label: 'None' });
    await expect(page).toHaveURL(/compare=none/);
    await expect(summary.getByText(/versus/)).toHaveCount(0);
    await page.getByLabel('Compare to', { exact: true }).selectOption({ label: 'Previous period' });
    await expect(page).not.toHaveURL(/compare=/);

    await page.getByLabel('Date Range', { exact: true }).selectOption('90');
    await expect(page).toHaveURL(/days=90/);
    await expect(page.getByRole('button', { name: 'Clear Filters' })).toHaveCount(0);
    await page.getByLabel('Platform', { exact: true }).selectOption({ label: 'YouTube' });
    await expect(page).toHaveURL(/platform=1/);
    await expect(page.getByRole('button', { name: 'Clear Filters' })).toBeVisible();
    await expect(page.getByText('No followers data available')).toHaveCount(0);
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(page).not.toHaveURL(/platform=/);
    await expect(page.getByRole('button', { name: 'Clear Filters' })).toHaveCount(0);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
});
