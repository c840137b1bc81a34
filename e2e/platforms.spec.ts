import { expect, expectAccessible, test, watchPageProblems } from './support/fixtures.ts';
import { expectFirstSyncDone } from './support/demo-channel.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

test.describe('platform connections', () => {
  test('connect YouTube and TikTok through the sandbox consent pages, each synced at once, see them, disconnect one', async ({ page, server, smtp }) => {
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);

    await page.getByRole('link', { name: 'Platforms' }).click();
    await expect(page.getByText('No platforms connected')).toBeVisible();
    await expectAccessible(page);

    for (const platform of ['YouTube', 'TikTok']) {
      await page.getByRole('button', { name: new RegExp(`^Connect ${platform}`) }).click();
      // The platform's own consent page (the sandbox), then back to our callback.
      await expect(page.getByRole('heading', { name: new RegExp(`wants to access your ${platform} account`) })).toBeVisible();
      await page.getByRole('button', { name: 'Authorize' }).click();
      // Back on Platforms, the code and state gone from the address bar (RFC 9700 §4.2.4), the account named.
      await expect(page.getByText('Successfully connected!')).toBeVisible();
      await expect(page).toHaveURL(/\/platforms$/);
      await expect(page.getByText(new RegExp(`Your ${platform} account \\S+ is connected\\.`))).toBeVisible();
      // Its first sync starts by itself (no Sync click): the banner follows it to the end, and the row says when.
      await expectFirstSyncDone(page);
      const banner = page.getByRole('status').filter({ hasText: 'Successfully connected!' });
      if (platform === 'YouTube') {
        await expectAccessible(page);
        await page.screenshot({ path: test.info().outputPath('platforms-first-sync-done.png'), fullPage: true });
      }
      await banner.getByRole('button', { name: 'Dismiss' }).click();
      await expect(page.getByText('Successfully connected!')).toHaveCount(0);
    }
    await expect(page.getByText('Not synced yet')).toHaveCount(0);

    const accounts = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Connected Accounts' }) });
    await expect(accounts.getByText('YouTube', { exact: true })).toBeVisible();
    await expect(accounts.getByText('TikTok', { exact: true })).toBeVisible();
    await expect(accounts.getByText(/subscribers/)).toBeVisible();

    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByRole('heading', { name: 'Platform Connections' })).toBeVisible();
    // The card itself: other dashboard panels name the platforms too (headings, a platform filter's options).
    const card = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Platform Connections' }) });
    await expect(card.getByText('YouTube', { exact: true })).toBeVisible();
    await expect(card.getByText('TikTok', { exact: true })).toBeVisible();
    await expect(page.getByText('No platforms connected yet')).toHaveCount(0);

    await page.getByRole('link', { name: 'Platforms' }).click();
    // "Connected" on a card is a status; disconnecting asks first, naming the account and what is deleted.
    await expect(page.getByRole('button', { name: /^Connected/ })).toHaveCount(0);
    await page.getByRole('button', { name: /^Disconnect TikTok/ }).first().click();
    const confirm = page.getByRole('alertdialog', { name: 'Disconnect TikTok?' });
    await expect(confirm).toContainText('It cannot be undone.');
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Disconnect', exact: true }).click();
    // The scheduler may be running YouTube's first sync meanwhile: on the embedded database its storing transaction
    // (~1,200 videos) holds every other statement, the disconnection's too, for seconds under load.
    await expect(accounts.getByText('TikTok', { exact: true })).toHaveCount(0, { timeout: 45_000 });
    await expect(accounts.getByText('YouTube', { exact: true })).toBeVisible();
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  test('TikTok with permissions unticked says what is missing; a Patreon campaign gets its currency from Patreon, and the creator can change it', async ({ page, server, smtp }) => {
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);
    await page.getByRole('link', { name: 'Platforms' }).click();

    await page.getByRole('button', { name: /^Connect TikTok/ }).click();
    await expect(page.getByRole('heading', { name: /wants to access your TikTok account/ })).toBeVisible();
    await page.getByRole('checkbox', { name: /Read your profile statistics/ }).uncheck();
    await page.getByRole('checkbox', { name: /Read your public videos/ }).uncheck();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expect(page.getByText('Successfully connected!')).toBeVisible();

    const accounts = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Connected Accounts' }) });
    await expect(accounts.getByText('Not shared by TikTok: followers, videos, views, likes, comments and shares.')).toBeVisible();
    await expect(accounts.getByText('Followers not available')).toBeVisible();
    await expect(accounts.getByRole('button', { name: /^Allow more permissions for TikTok/ })).toBeEnabled();

    await page.getByRole('button', { name: /^Connect Patreon/ }).click();
    await expect(page.getByRole('heading', { name: /wants to access your Patreon account/ })).toBeVisible();
    await page.getByRole('radio').nth(1).check();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expect(page.getByText('Successfully connected!')).toBeVisible();
    // The first sync reads the campaign's currency from its pledge events (the sandbox's second campaign: euros).
    await expect(page.getByText('Its pledges are counted in EUR, the currency your campaign charges in.')).toBeVisible({ timeout: 30_000 });
    const currency = accounts.getByLabel(/Campaign currency/);
    await expect(currency).toHaveValue('EUR');
    await currency.selectOption('GBP');
    await expect(accounts.getByText('Pledges are counted in GBP.', { exact: false })).toBeVisible();
    await page.reload();
    await expect(accounts.getByLabel(/Campaign currency/)).toHaveValue('GBP');
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  test('denying at the platform shows the failure with its reason', async ({ page, server, smtp }) => {
    await signInWithTrial(page, server, smtp);
    await page.getByRole('link', { name: 'Platforms' }).click();
    await page.getByRole('button', { name: /^Connect LinkedIn/ }).click();
    await expect(page.getByRole('heading', { name: /wants to access your LinkedIn account/ })).toBeVisible();
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect(page.getByText('Connection failed')).toBeVisible();
    await expect(page.getByText(/access_denied|denied/i).first()).toBeVisible();
  });
});
