import type { Page } from '@playwright/test';
import { startTrialFromBilling } from './support/subscribed-user.ts';
import { confirmationLink, createConfirmedAccount, expect, expectAccessible, expectNoSidewaysScroll, newAccount, signInThroughUi, test, waitForMail, watchPageProblems } from './support/fixtures.ts';

/** The sign-up form, filled and sent. */
async function signUpThroughForm(page: Page, account: { username: string; email: string; password: string }) {
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
}

test.describe('accounts', () => {
  test('checklist 13: sign up, confirm from the emailed link, sign in, stay signed in across a reload, log out (the token is forgotten)', async ({ page, server, smtp }) => {
    const problems = watchPageProblems(page);
    const account = newAccount();
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('link', { name: 'Sign In' }).first().click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Analytics Hub' })).toBeVisible();
    await expect(page.getByText('Sign in to your account')).toBeVisible();

    await page.getByRole('button', { name: "Don't have an account? Sign up" }).click();
    await expect(page.getByPlaceholder('Choose a username')).toBeVisible();
    await signUpThroughForm(page, account);
    await expect(page.getByText('Registration Successful!')).toBeVisible();
    await expect(page.getByText('Please check your email and click the confirmation link to activate your account.')).toBeVisible();
    // Back in sign-in mode with a cleared form.
    await expect(page.getByPlaceholder('Enter your username')).toHaveValue('');

    // Signing in before confirming shows the confirmation notice.
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByText('Email Confirmation Required')).toBeVisible();
    await expect(page.getByText(`A confirmation email was sent to ${account.email}`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resend Confirmation Email' })).toBeVisible();

    const mail = await waitForMail(smtp, account.email);
    expect(mail.subject).toBe('Confirm your email for Analytics Hub');
    await page.goto(confirmationLink(mail));
    await expect(page.getByText('Email Confirmed Successfully!')).toBeVisible();
    // The single-use token leaves the address bar (and the history entry) once read.
    expect(new URL(page.url()).search).toBe('');

    await signInThroughUi(page, server, account);
    await expect(page.getByRole('complementary', { name: 'Sidebar' }).getByText('Analytics Hub')).toBeVisible();
    await expect(page).not.toHaveURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toMatch(/^[\w-]+\.[\w-]+$/);
    for (const section of ['Dashboard', 'Analytics', 'YouTube', 'Platforms', 'Billing']) {
      await expect(page.getByRole('navigation').getByRole('link', { name: section })).toBeVisible();
    }

    await page.reload();
    await expect(page.getByRole('complementary', { name: 'Sidebar' }).getByText('Analytics Hub')).toBeVisible();
    await expect(page).not.toHaveURL(/\/login/);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
    expect(problems).toEqual([]);
  });

  test("the landing page's trial goes through sign-up first, then the checkout: the trial is the new account's (issue 25)", async ({ page, server, smtp }) => {
    const problems = watchPageProblems(page);
    const account = newAccount();
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('button', { name: 'Start 7-Day Free Trial' }).first().click();
    // No payment page before there is an account: the sign-up form.
    await expect(page).toHaveURL(/\/login\?mode=sign-up$/);
    await expect(page.getByPlaceholder('Choose a username')).toBeVisible();
    await signUpThroughForm(page, account);
    await expect(page.getByText('Registration Successful!')).toBeVisible();

    await page.goto(confirmationLink(await waitForMail(smtp, account.email)));
    await expect(page.getByText('Email Confirmed Successfully!')).toBeVisible();
    await signInThroughUi(page, server, account);
    // Signed in, the checkout: the subscription belongs to this account.
    await startTrialFromBilling(page);
    // The welcome came with the confirmation, and the trial's own mail says when it ends and how not to be charged.
    expect((await waitForMail(smtp, account.email, 'Welcome to Analytics Hub')).text).toContain(`${server.baseUrl}/platforms`);
    const trialMail = await waitForMail(smtp, account.email, 'Your 7-day trial has started');
    expect(trialMail.text).toMatch(/It ends on \w+day, \w+ \d{1,2}, \d{4} at /);
    expect(trialMail.text).toContain('Cancel Subscription');
    expect(problems).toEqual([]);
  });

  test('a wrong password shows the error box with the raw server response under Show details', async ({ page, server, smtp }) => {
    const account = await createConfirmedAccount(server, smtp);
    await signInThroughUi(page, server, { username: account.username, password: 'not the right one' });
    await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
    await page.getByText('Show details').click();
    await expect(page.getByLabel('Server response')).toContainText(/"code":\s*"unauthorized"/);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('checklist 13: a token revoked on the server sends the app back to the login screen and forgets the token', async ({ page, server, smtp }) => {
    const account = await createConfirmedAccount(server, smtp);
    await signInThroughUi(page, server, account);
    await expect(page.getByRole('complementary', { name: 'Sidebar' }).getByText('Analytics Hub')).toBeVisible();
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    const logout = await fetch(`${server.baseUrl}/api/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(logout.status).toBe(200);
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
  });

  test('the sandbox mailbox holds the confirmation email when no SMTP server is configured', async ({ page, sandboxServer }) => {
    const account = newAccount();
    await page.goto(`${sandboxServer.baseUrl}/login`);
    await page.getByRole('button', { name: "Don't have an account? Sign up" }).click();
    await signUpThroughForm(page, account);
    await expect(page.getByText('Registration Successful!')).toBeVisible();

    await expect(async () => {
      await page.goto(`${sandboxServer.baseUrl}/sandbox/mail`);
      await expect(page.getByText(`To ${account.email}`, { exact: false })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    // The mailbox keeps every mail: the confirmation is the one to this address with its subject.
    const message = page.locator('article').filter({ hasText: account.email }).filter({ has: page.getByRole('heading', { name: 'Confirm your email for Analytics Hub' }) });
    await message.getByRole('link', { name: /confirm-email/ }).click();
    await expect(page.getByText('Email Confirmed Successfully!')).toBeVisible();
    expect(sandboxServer.output()).toContain('sandbox mailbox received a message');
  });

  test('confirmation and resend screens handle bad links and resends', async ({ page, server }) => {
    await page.goto(`${server.baseUrl}/confirm-email?userId=1`);
    await expect(page.getByText('Invalid confirmation link. Missing required parameters.')).toBeVisible();
    await page.goto(`${server.baseUrl}/confirm-email?userId=1&token=not-a-real-token`);
    await expect(page.getByText('Confirmation Failed')).toBeVisible();
    await expectAccessible(page);

    await page.goto(`${server.baseUrl}/resend-confirmation`);
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Send Confirmation Email' }).click();
    await expect(page.getByText('Email Sent Successfully!')).toBeVisible();
    await expectAccessible(page);
  });

  test('forgot password: the emailed link sets a new password on a phone, signs out the old session, and works once', async ({ browser, page, server, smtp }) => {
    const problems = watchPageProblems(page);
    const account = await createConfirmedAccount(server, smtp);
    // A session elsewhere, which the reset must end.
    const elsewhere = await browser.newPage();
    await signInThroughUi(elsewhere, server, account);
    await expect(elsewhere).toHaveURL(/\/(dashboard|billing)(\?.*)?$/);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.baseUrl}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    await expect(page.getByText('Check your inbox')).toBeVisible();

    const mail = await smtp.waitFor((message) => message.to.includes(account.email) && message.subject === 'Reset your Analytics Hub password');
    expect(mail.text).toContain(account.username);
    const link = new URL(/https?:\/\/\S+\/reset-password\?\S+/.exec(mail.text)![0]);
    const resetPath = `${link.pathname}${link.search}`;
    await page.goto(`${server.baseUrl}${resetPath}`);
    // The token leaves the address bar at once.
    await expect(page).toHaveURL(/\/reset-password$/);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await page.getByLabel('Repeat the new password').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByText('Password changed', { exact: true })).toBeVisible();

    // The other session is over: its next request lands on the login screen.
    await elsewhere.reload();
    await expect(elsewhere).toHaveURL(/\/login$/);
    await elsewhere.close();

    await page.getByRole('link', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/(dashboard|billing)(\?.*)?$/);

    // The link works once.
    await page.goto(`${server.baseUrl}${resetPath}`);
    await page.getByLabel('New password', { exact: true }).fill('another new passphrase');
    await page.getByLabel('Repeat the new password').fill('another new passphrase');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByText('This password reset link is invalid, used or expired. Ask for a new one.')).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('landing and login pages are accessible and fit a phone screen', async ({ page, server }) => {
    const problems = watchPageProblems(page);
    await page.setViewportSize({ width: 375, height: 812 });
    for (const path of ['/', '/login']) {
      await page.goto(`${server.baseUrl}${path}`);
      await expect(page.getByRole('heading').first()).toBeVisible();
      await expectAccessible(page);
      await expectNoSidewaysScroll(page);
    }
    await page.goto(`${server.baseUrl}/`);
    for (const feature of ['Real-time Analytics', 'Multi-Platform Support', 'Growth Insights', 'Automated Reports', 'Audience Analytics', 'Secure & Private']) {
      await expect(page.getByRole('heading', { name: feature })).toBeVisible();
    }
    await expect(page.getByText('Cancel anytime. No setup fees.')).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('the signed-in shell works with the keyboard and passes axe', async ({ page, server, smtp }) => {
    const account = await createConfirmedAccount(server, smtp);
    await signInThroughUi(page, server, account);
    await expect(page.getByRole('complementary', { name: 'Sidebar' }).getByText('Analytics Hub')).toBeVisible();
    await expectAccessible(page);
  });
});
