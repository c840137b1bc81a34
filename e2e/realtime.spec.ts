import { expect, test, watchPageProblems } from './support/fixtures.ts';
import { expectFirstSyncDone } from './support/demo-channel.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

test.describe('real-time updates', () => {
  test('an account connected in one tab syncs by itself and updates the dashboard open in another, without a reload', async ({ page, server, smtp }) => {
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);

    // Tab 1: the dashboard, left alone. Nothing connected yet, so no engagement rate.
    const streamOpened = page.waitForResponse((response) => response.url().includes('/api/events/stream?ticket=') && response.status() === 200);
    await page.goto(`${server.baseUrl}/dashboard`);
    // One event stream for the tab, opened with a ticket (the session token never goes into a URL).
    expect((await streamOpened).url()).not.toContain((await page.evaluate(() => localStorage.getItem('auth_token')))!);
    const engagement = page.getByRole('region', { name: 'Summary' }).locator('div', { has: page.getByText('Engagement Rate', { exact: true }) }).last();
    await expect(engagement).toContainText('No data yet');
    await expect(page.getByText('No platforms connected yet')).toBeVisible();
    // Anything that reloads or navigates this tab would drop this marker.
    await page.evaluate(() => {
      (window as unknown as { liveUpdateMarker: string }).liveUpdateMarker = 'still here';
    });
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });

    // Tab 2 (same browser session): connect Instagram; back on Platforms, its first sync runs by itself.
    const other = await page.context().newPage();
    await other.goto(`${server.baseUrl}/platforms`);
    await other.getByRole('button', { name: /^Connect Instagram/ }).click();
    // Each sandbox account links to one Analytics Hub user: the other journeys use Instagram's Ivy Chen, YouTube's
    // Maya Lopez and Theo Park; this one takes Instagram's Theo Park.
    await other.getByRole('radio', { name: /Theo Park/ }).check();
    await other.getByRole('button', { name: 'Authorize' }).click();
    await expect(other.getByText('Successfully connected!')).toBeVisible();
    await expectFirstSyncDone(other, 60_000);

    // Tab 1 did nothing, yet lists the account and shows its numbers: pushed by the event stream.
    await expect(page.getByText('No platforms connected yet')).toHaveCount(0, { timeout: 10_000 });
    // The rate, then its change against the previous period.
    await expect(engagement).toContainText(/^Engagement Rate\d+(\.\d)?%/, { timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { liveUpdateMarker?: string }).liveUpdateMarker)).toBe('still here');
    expect(navigations).toEqual([]);
    await other.close();
    expect(problems).toEqual([]);
  });
});
