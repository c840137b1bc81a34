import { expect, expectAccessible, test, watchPageProblems } from './support/fixtures.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

test.describe('alerts', () => {
  test('the header names the unread notices and opens their list from the keyboard; the alert switches in Settings are kept', async ({ page, server, smtp }) => {
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);

    const notices = page.getByRole('button', { name: 'Notices, none unread' });
    await notices.focus();
    await page.keyboard.press('Enter');
    await expect(notices).toHaveAttribute('aria-expanded', 'true');
    const panel = page.getByRole('region', { name: 'Notices' });
    await expect(panel.getByText('No notices yet.')).toBeVisible();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(notices).toBeFocused();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    const milestones = page.getByRole('checkbox', { name: /A follower milestone/ });
    await expect(milestones).toBeChecked();
    await expect(page.getByRole('checkbox', { name: /A connection needs reconnecting/ })).toBeChecked();
    await milestones.uncheck();
    await expect(page.getByText('Alert settings saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('checkbox', { name: /A follower milestone/ })).not.toBeChecked();
    await expect(page.getByRole('checkbox', { name: /A connection needs reconnecting/ })).toBeChecked();
    expect(problems).toEqual([]);
  });
});
