import { createConfirmedAccount, expect, expectAccessible, expectNoSidewaysScroll, signInThroughUi, test, watchPageProblems } from './support/fixtures.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

test.describe('settings', () => {
  // The browser says its zone by the retired name, as Chromium's ICU still does: Settings offers the current one.
  test.use({ timezoneId: 'Asia/Calcutta' });

  test('open Settings from the sidebar, change the name, turn on a daily report, sign out everywhere else, delete the account', async ({ browser, page, server, smtp }, testInfo) => {
    // Many steps on a shared machine (the time zone, screenshots at two widths, a second browser).
    test.setTimeout(150_000);
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

    // One time zone for the account: found by typing, picked from the list by keyboard, each zone with its offset.
    const timeZone = page.getByRole('form', { name: 'Time zone' });
    const zonePicker = timeZone.getByRole('combobox', { name: 'Your time zone' });
    await zonePicker.fill('paris');
    const zoneList = timeZone.getByRole('listbox', { name: 'Your time zone' });
    await expect(zoneList.getByRole('option')).toHaveText([/^Europe\/ParisUTC\+0[12]:00$/]);
    await zonePicker.press('Enter');
    await expect(zonePicker).toHaveValue('Europe/Paris');
    await expect(zoneList).toBeHidden();
    await timeZone.getByRole('button', { name: 'Save time zone' }).click();
    await expect(timeZone.getByText('Your time zone is saved.')).toBeVisible();

    const reports = page.getByRole('form', { name: 'Email reports' });
    await expect(reports.getByText('In your time zone, Europe/Paris (change it under Time zone).')).toBeVisible();
    await reports.getByText('Daily', { exact: true }).click();
    await reports.getByLabel('Time of day').selectOption('9');
    await reports.getByRole('button', { name: 'Save report settings' }).click();
    await expect(page.getByText(/Saved: Daily at 09:00 \(Europe\/Paris\)\. Next report /)).toBeVisible();

    // "Use my time zone": the browser's, by its current name; the reports follow the one setting.
    await timeZone.getByRole('button', { name: 'Use my time zone' }).click();
    await expect(zonePicker).toHaveValue('Asia/Kolkata');
    await timeZone.getByRole('button', { name: 'Save time zone' }).click();
    await expect(page.getByText(/Saved: Daily at 09:00 \(Asia\/Kolkata\)\. Next report /)).toBeVisible();
    await expect(reports.getByText('In your time zone, Asia/Kolkata (change it under Time zone).')).toBeVisible();

    // Survives a reload: it is the server's state.
    await page.reload();
    await expect(page.getByRole('form', { name: 'Profile' }).getByLabel('First name')).toHaveValue('Ada');
    await expect(page.getByRole('form', { name: 'Email reports' }).getByRole('radio', { name: 'Daily' })).toBeChecked();
    await expect(page.getByRole('form', { name: 'Time zone' }).getByRole('combobox', { name: 'Your time zone' })).toHaveValue('Asia/Kolkata');
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: testInfo.outputPath('settings-1280.png'), fullPage: true });
    // The open list, searched, at desktop and phone widths.
    const picker = page.getByRole('form', { name: 'Time zone' }).getByRole('combobox', { name: 'Your time zone' });
    await picker.fill('america');
    await expectAccessible(page);
    await page.screenshot({ path: testInfo.outputPath('time-zone-open-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await picker.press('Escape');
    await page.screenshot({ path: testInfo.outputPath('settings-390.png'), fullPage: true });
    await picker.fill('kolkata');
    await picker.press('ArrowDown');
    await page.screenshot({ path: testInfo.outputPath('time-zone-open-390.png'), fullPage: true });
    await picker.press('Escape');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Sessions (checklist 9 and 13): a second browser signed in to the same account, and a script's session.
    const otherBrowser = await browser.newContext();
    const otherPage = await otherBrowser.newPage();
    await signInThroughUi(otherPage, server, account);
    await expect(otherPage).toHaveURL(/\/dashboard$/);
    const scripted = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0' },
      body: JSON.stringify({ username: account.username, password: account.password }),
    });
    const scriptedToken = ((await scripted.json()) as { token: string }).token;

    await page.reload();
    const devices = page.getByRole('list', { name: 'Signed-in devices' });
    await expect(devices.getByRole('listitem')).toHaveCount(3);
    await expect(devices.getByRole('listitem').first()).toContainText('This device');
    await expect(devices.getByRole('button', { name: /^Sign out Firefox on Windows, signed in / })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(page.getByText('Signed out everywhere else: 2 sessions ended.')).toBeVisible();
    await expect(devices.getByRole('listitem')).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
    // Checklist 13: the other browser's session is gone on the server (its live-update stream was told so and closed);
    // its next call gets 401, which removes the token and sends it to sign in.
    await otherPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    await expect(otherPage).toHaveURL(/\/login$/);
    // The 401 handling reloads the page at /login: read the storage once that load has settled.
    await expect.poll(() => otherPage.evaluate(() => window.localStorage.getItem('auth_token')).catch(() => 'still navigating')).toBeNull();
    await expect(otherPage.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    await otherBrowser.close();
    expect((await fetch(`${server.baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${scriptedToken}` } })).status).toBe(401);
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();

    await page.getByRole('button', { name: 'Delete account…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await expect(dialog).toBeVisible();
    const deleteForever = dialog.getByRole('button', { name: 'Delete forever' });
    await expect(deleteForever).toBeDisabled();
    await dialog.getByLabel('Password').fill(account.password);
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
    await deleteForever.click();
    await expect(page).toHaveURL(/\/account-deleted$/);
    await expect(page.getByRole('heading', { name: 'Your account is deleted' })).toBeVisible();
    for (const [name, href] of [
      ['LinkedIn: Permitted services', 'https://www.linkedin.com/mypreferences/d/permitted-services'],
      ['Patreon: Settings, Apps', 'https://www.patreon.com/settings/apps'],
      ['Instagram: Apps and websites', 'https://www.instagram.com/accounts/manage_access/'],
    ]) {
      await expect(page.getByRole('link', { name: `${name} (opens in a new tab)` })).toHaveAttribute('href', href!);
    }
    await expectAccessible(page);
    expect(await page.evaluate(() => window.localStorage.getItem('auth_token'))).toBeNull();

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
    await expectNoSidewaysScroll(page);
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
