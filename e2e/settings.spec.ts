import { createConfirmedAccount, expect, expectAccessible, signInThroughUi, test, watchPageProblems } from './support/fixtures.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

test.describe('settings', () => {
  test('open Settings from the sidebar, change the name, turn on a daily report, delete the account', async ({ page, server, smtp }, testInfo) => {
    const problems = watchPageProblems(page);
    const account = await signInWithTrial(page, server, smtp);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await expect(page.locator('header').getByText('Settings', { exact: true })).toBeVisible();

    const profile = page.getByRole('form', { name: 'Profile' });
    await profile.getByLabel('First name').fill('Ada');
    await profile.getByLabel('Last name').fill('Lovelace');
    await profile.getByRole('button', { name: 'Save name' }).click();
    await expect(profile.getByText('Your name is saved.')).toBeVisible();

    const reports = page.getByRole('form', { name: 'Email reports' });
    await reports.getByText('Daily', { exact: true }).click();
    await reports.getByLabel('Time of day').selectOption('9');
    await reports.getByLabel('Time zone').selectOption('Europe/Paris');
    await reports.getByRole('button', { name: 'Save report settings' }).click();
    await expect(page.getByText(/Saved: Daily at 09:00 \(Europe\/Paris\)\. Next report /)).toBeVisible();

    // Survives a reload: it is the server's state.
    await page.reload();
    await expect(page.getByRole('form', { name: 'Profile' }).getByLabel('First name')).toHaveValue('Ada');
    await expect(page.getByRole('form', { name: 'Email reports' }).getByRole('radio', { name: 'Daily' })).toBeChecked();
    await expectAccessible(page);
    await page.screenshot({ path: testInfo.outputPath('settings-desktop.png'), fullPage: true });

    await page.getByRole('button', { name: 'Delete account…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await expect(dialog).toBeVisible();
    const deleteForever = dialog.getByRole('button', { name: 'Delete forever' });
    await expect(deleteForever).toBeDisabled();
    await dialog.getByLabel('Password').fill(account.password);
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
    await deleteForever.click();
    await expect(page).toHaveURL(/\/login$/);

    // The account is gone: signing in again fails.
    await signInThroughUi(page, server, account);
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid username or password' })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('a user without a subscription manages the account on a phone; reports offer the upgrade', async ({ page, server, smtp }, testInfo) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const account = await createConfirmedAccount(server, smtp);
    await signInThroughUi(page, server, account);
    await expect(page).toHaveURL(/\/billing\?upgrade=true$/);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByText('Email reports come with Analytics Hub Pro')).toBeVisible();
    await expect(page.getByRole('form', { name: 'Profile' }).getByLabel('First name')).toBeVisible();
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(page);
    await page.screenshot({ path: testInfo.outputPath('settings-375.png'), fullPage: true });
  });

  test('the unsubscribe page works without signing in and explains a bad link', async ({ page, server }) => {
    await page.goto(`${server.baseUrl}/unsubscribe?token=${'x'.repeat(43)}`);
    await expect(page.getByRole('heading', { name: 'Unsubscribe from reports' })).toBeVisible();
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByText(/invalid or has expired/)).toBeVisible();
    await expect(page).toHaveURL(/\/unsubscribe\?token=/);
  });
});
