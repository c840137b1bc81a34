import { expect, expectAccessible, expectNoSidewaysScroll, test as base, watchPageProblems } from './support/fixtures.ts';
import { startServerProcess, type RunningServer } from './support/server-process.ts';
import { signInWithTrial } from './support/subscribed-user.ts';
import { connectDemoYoutube } from './support/demo-channel.ts';

// "What changed" (issue 17): a card's change figure opens the panel, whose waterfall and table split the change into
// parts that add up to it. Each sandbox platform account links to one Analytics Hub user, so this journey connects the
// monetised demo channel (Maya Lopez) on a server of its own.
const test = base.extend<object, { whatChangedServer: RunningServer }>({
  whatChangedServer: [
    async ({ smtp }, use) => {
      const server = await startServerProcess({ SMTP_URL: smtp.url });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

/** A signed figure of the table ('+1,200', '−$3.40') in cents. */
const cents = (text: string) => Math.round(Number(text.replace('−', '-').replace(/[$,+\s]/g, '')) * 100);

test.describe('what changed', () => {
  test('open the panel from a card, read the split whose parts sum to the change, on Analytics and YouTube', async ({ page, whatChangedServer: server, smtp }) => {
    test.setTimeout(180_000);
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);

    await connectDemoYoutube(page, /Maya Lopez/);

    // Analytics: the Total Views card's change figure opens the panel.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('button', { name: /what changed in Total Views$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'What changed: views' });
    await expect(dialog).toBeVisible();
    const table = dialog.getByRole('table', { name: /^By platform:/ });
    await expect(table).toBeVisible({ timeout: 30_000 });
    await expect(dialog.getByRole('button', { name: 'By platform' })).toHaveAttribute('aria-pressed', 'true');
    // Each split's parts add up to its total, to the view.
    for (const split of ['By platform', 'YouTube views by traffic source', 'New uploads and back catalogue', 'Top contributing items']) {
      await dialog.getByRole('button', { name: split }).click();
      const shown = dialog.getByRole('table', { name: new RegExp(`^${split}:`) });
      await expect(shown).toBeVisible();
      const changes = await shown.locator('tbody tr td:nth-of-type(1)').allTextContents();
      const total = await shown.locator('tfoot td').first().textContent();
      expect(changes.length).toBeGreaterThan(0);
      expect(changes.reduce((sum, text) => sum + cents(text), 0)).toBe(cents(total!));      // Each split says where its numbers come from in a creator's words, its method behind "How is this calculated?".
      const said = await dialog.evaluate((element) => (element as HTMLElement).innerText);
      expect(said).not.toMatch(/account_metrics|content_metrics|insightTrafficSourceType|youtube_channel_traffic|dimensions day|z-score/);
    }
    await dialog.getByText('How is this calculated?').click();
    await expect(dialog.getByText(/robust z-scores/)).toBeVisible();
    // The chart is a picture beside the table; axe finds nothing serious with the panel open.
    await expect(dialog.locator('canvas')).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath('what-changed-analytics-1280.png'), fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await dialog.getByRole('button', { name: 'By platform' }).click();
    await expect(dialog.getByRole('table', { name: /^By platform:/ })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: test.info().outputPath('what-changed-analytics-390.png'), fullPage: false });
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await page.setViewportSize({ width: 1280, height: 900 });

    // YouTube: Total Revenue's change opens the funnel, views × RPM, in US dollars to the cent.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'YouTube' }).click();
    await page.getByRole('button', { name: /what changed in Total Revenue$/ }).click();
    const revenue = page.getByRole('dialog', { name: 'What changed: revenue' });
    await expect(revenue.getByText('Revenue in US dollars (USD).')).toBeVisible({ timeout: 30_000 });
    await revenue.getByRole('button', { name: 'YouTube revenue: views × RPM' }).click();
    const funnel = revenue.getByRole('table', { name: /^YouTube revenue: views × RPM:/ });
    await expect(funnel.getByRole('rowheader')).toHaveText([/^Views/, /^RPM/, 'Total']);
    const parts = await funnel.locator('tbody tr td:nth-of-type(1)').allTextContents();
    expect(parts.reduce((sum, text) => sum + cents(text), 0)).toBe(cents((await funnel.locator('tfoot td').first().textContent())!));
    await page.screenshot({ path: test.info().outputPath('what-changed-youtube-1280.png'), fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: test.info().outputPath('what-changed-youtube-390.png'), fullPage: false });
    expect(problems).toEqual([]);
  });
});
