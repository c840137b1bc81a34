import { expect, test, watchPageProblems } from './support/fixtures.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

test.describe('real-time updates', () => {
  test('a sync started in one tab updates the dashboard open in another, without a reload', async ({ page, server, smtp }) => {
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);

    await page.goto(`${server.baseUrl}/platforms`);
    await page.getByRole('button', { name: /^Connect Instagram/ }).click();
    // Each sandbox account links to one Analytics Hub user: the other journeys use Instagram's Ivy Chen, YouTube's
    // Maya Lopez and Theo Park; this one takes Instagram's Theo Park.
    await page.getByRole('radio', { name: /Theo Park/ }).check();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expect(page.getByText('Successfully connected!')).toBeVisible();

    // Tab 1: the dashboard, left alone. Never synced, so no engagement rate yet.
    const streamOpened = page.waitForResponse((response) => response.url().includes('/api/events/stream?ticket=') && response.status() === 200);
    await page.goto(`${server.baseUrl}/dashboard`);
    // One event stream for the tab, opened with a ticket (the session token never goes into a URL).
    expect((await streamOpened).url()).not.toContain((await page.evaluate(() => localStorage.getItem('auth_token')))!);
    const engagement = page.getByRole('region', { name: 'Summary' }).locator('div', { has: page.getByText('Engagement Rate', { exact: true }) }).last();
    await expect(engagement).toContainText('No data yet');
    // Anything that reloads or navigates this tab would drop this marker.
    await page.evaluate(() => {
      (window as unknown as { liveUpdateMarker: string }).liveUpdateMarker = 'still here';
    });
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });

    // Tab 2 (same browser session): Sync Data, with its progress on the button.
    const other = await page.context().newPage();
    await other.goto(`${server.baseUrl}/dashboard`);
    await other.getByRole('button', { name: 'Sync Data' }).click();
    await expect(other.getByRole('button', { name: /^Syncing\.\.\./ })).toBeVisible();
    await expect(other.getByRole('button', { name: 'Sync Data' })).toBeEnabled({ timeout: 60_000 });

    // Tab 1 did nothing, yet shows the new numbers: pushed by the event stream.
    // The rate, then its change against the previous period.
    await expect(engagement).toContainText(/^Engagement Rate\d+(\.\d)?%/, { timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { liveUpdateMarker?: string }).liveUpdateMarker)).toBe('still here');
    expect(navigations).toEqual([]);
    await other.close();
    expect(problems).toEqual([]);
  });
});
