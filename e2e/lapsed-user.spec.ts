// A user whose trial ended keeps what they need to leave: on Billing (the one screen without valid access, spec §6)
// they disconnect a platform, with the Platforms page's own confirmation, and download their data. The trial ends as
// Stripe ends it: the Stripe sandbox's clock of this customer moves past the trial's end, and its webhook tells the app.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, expectNoSidewaysScroll, test, watchPageProblems } from './support/fixtures.ts';
import type { RunningServer } from './support/server-process.ts';
import { expectFirstSyncDone } from './support/demo-channel.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

/** The sandbox's default key (sandbox/stripe/stripe-sandbox.ts), which server/main.ts starts it with. */
const SANDBOX_SECRET_KEY = 'sk_test_sandbox';

/** The Stripe sandbox's API, as server/main.ts logs it at start-up. */
function stripeSandboxApi(server: RunningServer): string {
  const logged = /"api":"(http:\/\/[^"]+)"/.exec(server.output());
  if (!logged) throw new Error(`the server did not log its Stripe sandbox:\n${server.output()}`);
  return logged[1]!;
}

async function stripe(server: RunningServer, method: 'GET' | 'POST', path: string, form?: Record<string, string>) {
  const response = await fetch(`${stripeSandboxApi(server)}${path}`, {
    method,
    headers: { authorization: `Bearer ${SANDBOX_SECRET_KEY}`, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  expect(response.status, `${method} ${path}`).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function subscriptionStatus(page: Page, server: RunningServer) {
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const response = await fetch(`${server.baseUrl}/api/stripe/subscription-status`, { headers: { authorization: `Bearer ${token}` } });
  return (await response.json()) as { status: string | null; hasValidAccess: boolean; trialEnd: string | null };
}

/** Moves this customer's Stripe clock past the trial's end; the app hears of it by webhook. */
async function endTrial(page: Page, server: RunningServer, email: string) {
  const { trialEnd } = await subscriptionStatus(page, server);
  expect(trialEnd).not.toBeNull();
  const customers = (await stripe(server, 'GET', `/v1/customers?email=${encodeURIComponent(email)}`)) as { data: { id: string }[] };
  expect(customers.data).toHaveLength(1);
  const frozenTime = Math.floor(Date.parse(trialEnd!) / 1000) + 60;
  await stripe(server, 'POST', `/v1/test_helpers/customers/${customers.data[0]!.id}/advance_clock`, { frozen_time: String(frozenTime) });
  await expect.poll(async () => (await subscriptionStatus(page, server)).hasValidAccess, { message: 'the app still gives access' }).toBe(false);
}

test.describe('a lapsed user', () => {
  test('whose trial expired disconnects a platform and downloads an export from Billing', async ({ page, ownServer: server, smtp }, testInfo) => {
    // Sign-up, checkout, connect, a first sync, the trial's end and a download.
    test.setTimeout(180_000);
    const problems = watchPageProblems(page);
    const account = await signInWithTrial(page, server, smtp);

    await page.getByRole('link', { name: 'Platforms' }).click();
    await page.getByRole('button', { name: /^Connect Instagram/ }).click();
    await page.getByRole('radio', { name: /Ivy Chen/ }).check();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expect(page.getByText('Successfully connected!')).toBeVisible();
    await expectFirstSyncDone(page, 60_000);

    await endTrial(page, server, account.email);

    // Every other screen now sends the user to Billing, where their data is.
    await page.goto(`${server.baseUrl}/dashboard`);
    await expect(page).toHaveURL(/\/billing\?upgrade=true$/);
    const yourData = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Your data', exact: true }) });
    await expect(yourData).toBeVisible();
    const connections = yourData.getByRole('list', { name: 'Connected platforms' });
    await expect(connections.getByRole('listitem')).toHaveCount(1);
    await expect(connections.getByText('Instagram', { exact: true })).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: testInfo.outputPath('billing-your-data-desktop.png'), fullPage: true });

    // The download first, while there is data to download.
    const analytics = yourData.getByRole('group', { name: 'Your analytics' });
    const [csv] = await Promise.all([page.waitForEvent('download'), analytics.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(csv.suggestedFilename()).toMatch(/\.csv$/);
    await expect(page.getByRole('status').filter({ hasText: `Downloaded ${csv.suggestedFilename()}` })).toBeVisible();
    const lines = (await readFile((await csv.path())!)).subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('Date,Platform,Metric,Value,Content title,Derived');
    const records = lines.slice(1, -1).map((line) => line.split(','));
    expect(records.length).toBeGreaterThan(10);
    for (const [, platform] of records) expect(platform).toBe('Instagram');

    // A phone: the card fits and nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath('billing-your-data-phone.png'), fullPage: true });

    // Disconnect asks first, as on Platforms; keeping it connected changes nothing.
    await connections.getByRole('button', { name: /^Disconnect Instagram/ }).click();
    let dialog = page.getByRole('alertdialog', { name: 'Disconnect Instagram?' });
    await expect(dialog.getByText(/It cannot be undone\./)).toBeVisible();
    await dialog.getByRole('button', { name: 'Keep connected' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(connections.getByRole('listitem')).toHaveCount(1);

    await connections.getByRole('button', { name: /^Disconnect Instagram/ }).click();
    dialog = page.getByRole('alertdialog', { name: 'Disconnect Instagram?' });
    await dialog.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(yourData.getByText('No platforms connected.')).toBeVisible();
    // Gone on the server too: a reload still lists none.
    await page.reload();
    await expect(yourData.getByText('No platforms connected.')).toBeVisible();
    expect(problems).toEqual([]);
  });
});
