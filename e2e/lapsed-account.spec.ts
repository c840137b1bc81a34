import { readFile } from 'node:fs/promises';
import { expect, expectAccessible, expectNoSidewaysScroll, test, watchPageProblems } from './support/fixtures.ts';
import type { RunningServer } from './support/server-process.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

/**
 * Ends the user's trial at the Stripe sandbox (the server's own, found in its start-up log) as Stripe would when a
 * trial is canceled: the app hears it by webhook and the account has no access from then on. A journey cannot move
 * the server's clock, so this stands in for the trial's last day (server/modules/sync/subscription-end.test.ts
 * lets the trial run out on the test clock).
 */
async function endSubscriptionAtStripe(server: RunningServer, email: string) {
  const line = server.output().split('\n').find((entry) => entry.includes('Stripe sandbox: no Stripe keys'));
  const api = (JSON.parse(line!) as { api: string }).api;
  const headers = { authorization: 'Bearer sk_test_sandbox' };
  const customers = (await (await fetch(`${api}/v1/customers?email=${encodeURIComponent(email)}`, { headers })).json()) as { data: { id: string }[] };
  const subscriptions = (await (await fetch(`${api}/v1/subscriptions?customer=${customers.data[0]!.id}`, { headers })).json()) as { data: { id: string }[] };
  const canceled = await fetch(`${api}/v1/subscriptions/${subscriptions.data[0]!.id}`, { method: 'DELETE', headers });
  expect(canceled.status).toBe(200);
}

test.describe('a lapsed account', () => {
  test('finds its data on Billing: disconnects a platform with the Platforms confirmation and downloads an export', async ({ page, server, smtp }, testInfo) => {
    test.setTimeout(180_000);
    const problems = watchPageProblems(page);
    const account = await signInWithTrial(page, server, smtp);

    await page.getByRole('link', { name: 'Platforms' }).click();
    await page.getByRole('button', { name: /^Connect X/ }).click();
    await page.getByRole('radio').nth(2).check();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expect(page.getByText('Successfully connected!')).toBeVisible();

    await endSubscriptionAtStripe(server, account.email);
    // Every screen but Billing now needs a subscription.
    await page.goto(`${server.baseUrl}/platforms`);
    await expect(page).toHaveURL(/\/billing\?upgrade=true$/);
    const yourData = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Your data' }) });
    await expect(yourData).toBeVisible();
    const connections = yourData.getByRole('list', { name: 'Connected platforms' });
    await expect(connections.getByText('X', { exact: true })).toBeVisible();
    await expect(connections.getByText('Syncing is paused because your subscription ended. It resumes when you subscribe again.')).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: testInfo.outputPath('billing-your-data-desktop.png'), fullPage: true });

    const [file] = await Promise.all([page.waitForEvent('download'), yourData.getByRole('group', { name: 'Your analytics' }).getByRole('button', { name: 'Export CSV' }).click()]);
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    const text = (await readFile((await file.path())!)).toString('utf8');
    expect(text.split('\r\n')[0]).toMatch(/Date,Platform,Metric,Value,Content title,Derived$/);
    await expect(yourData.getByRole('status').filter({ hasText: `Downloaded ${file.suggestedFilename()}` })).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath('billing-your-data-phone.png'), fullPage: true });

    await connections.getByRole('button', { name: /^Disconnect X/ }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Disconnect X?' });
    await expect(dialog.getByText(/deletes what we stored for it/)).toBeVisible();
    await dialog.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(yourData.getByText('No platforms connected.')).toBeVisible();
    // Still on Billing, still signed in: nothing answered 402.
    await expect(page).toHaveURL(/\/billing/);
    await expect(yourData.getByRole('button', { name: 'Delete account…' })).toBeVisible();
    expect(problems).toEqual([]);
  });
});
