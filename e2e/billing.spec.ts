import { createConfirmedAccount, expect, expectAccessible, signInThroughUi, test, watchPageProblems } from './support/fixtures.ts';

test.describe('billing', () => {
  test('checklist 13: a 402 shows the paywall and keeps the session; a new user upgrades through the sandbox checkout, gets a 7-day trial, uses the app and cancels while keeping access', async ({ page, server, smtp }) => {
    const problems = watchPageProblems(page);
    const account = await createConfirmedAccount(server, smtp);
    await signInThroughUi(page, server, account);

    // No subscription yet: every premium screen sends the user to billing, still signed in.
    await expect(page).toHaveURL(/\/billing\?upgrade=true$/);
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toMatch(/^[\w-]+\.[\w-]+$/);
    await expect(page.getByText('Subscription Required')).toBeVisible();
    await expect(page.getByText('Inactive', { exact: true })).toBeVisible();
    await expectAccessible(page);
    await page.goto(`${server.baseUrl}/dashboard`);
    await expect(page).toHaveURL(/\/billing\?upgrade=true$/);

    await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
    // The sandbox's hosted checkout, on its own origin, like Stripe's.
    await expect(page.getByRole('heading', { name: 'Subscribe to Pro' })).toBeVisible();
    await expect(page.getByText('$20.00').first()).toBeVisible();
    await page.getByLabel(/Card number/).fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();

    await expect(page).toHaveURL(new RegExp(`^${server.baseUrl}/billing\\?success=true`));
    await expect(page.getByText('Payment Successful!')).toBeVisible();
    await expect(page.getByText('Welcome to Analytics Hub Pro! Your subscription is now active.')).toBeVisible();
    await expect(page.getByText('Trial', { exact: true })).toBeVisible();
    await expect(page.getByText(/7 days remaining/)).toBeVisible();
    // The query string is cleared after 5 seconds.
    await expect(page).toHaveURL(`${server.baseUrl}/billing`, { timeout: 10_000 });

    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Dashboard', exact: true })).toBeVisible();

    await page.getByRole('link', { name: 'Billing' }).click();
    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByText("Are you sure you want to cancel your subscription? You'll continue to have access until the end of your current billing period.")).toBeVisible();
    await dialog.getByRole('button', { name: 'Yes, Cancel' }).click();
    await expect(page.getByText(/Cancels on/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resume Subscription' })).toBeVisible();

    // Access continues until the trial's end.
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(problems).toEqual([]);
  });

  test('canceling at checkout comes back with the Payment Canceled notice', async ({ page, server, smtp }) => {
    const account = await createConfirmedAccount(server, smtp);
    await signInThroughUi(page, server, account);
    await expect(page).toHaveURL(/\/billing\?upgrade=true$/);
    await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await expect(page.getByRole('heading', { name: 'Subscribe to Pro' })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(page.getByText('Payment Canceled')).toBeVisible();
    await expect(page.getByText('No charges were made. You can try again anytime.')).toBeVisible();
  });
});
