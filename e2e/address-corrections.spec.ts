import { expect, test } from './support/fixtures.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

test.describe('address corrections', () => {
  test('an address value a page cannot show is replaced by what it shows, with one polite line', async ({ page, server, smtp }) => {
    await signInWithTrial(page, server, smtp);
    await page.goto(`${server.baseUrl}/dashboard`);

    for (const [days, asked] of [
      ['100000', '100000 days'],
      ['-5', '-5 days'],
      ['abc', '“abc” days'],
    ] as const) {
      await page.goto(`${server.baseUrl}/analytics?days=${days}&platform=1`);
      await expect(page.getByRole('status').filter({ hasText: `The address asked for ${asked}; showing the last 30 days.` })).toBeVisible();
      await expect(page).toHaveURL(/\/analytics\?platform=1$/);
      await expect(page.getByLabel('Date Range', { exact: true })).toHaveValue('30');
    }

    await page.goto(`${server.baseUrl}/income?range=10y`);
    await expect(page.getByRole('status').filter({ hasText: 'The address asked for the range “10y”; showing the last 6 months.' })).toBeVisible();
    await expect(page).toHaveURL(/\/income$/);
  });
});
