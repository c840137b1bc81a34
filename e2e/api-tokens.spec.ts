import { expect, expectAccessible, test, watchPageProblems } from './support/fixtures.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

test.describe('personal API tokens', () => {
  test('create a token in Settings, copy it once, read the analytics with it, revoke it and see 401', async ({ page, context, request, server, smtp }, testInfo) => {
    const problems = watchPageProblems(page);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInWithTrial(page, server, smtp);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();

    const section = page.locator('section').filter({ has: page.getByRole('heading', { name: 'API tokens', level: 2 }) });
    await expect(section.getByText('No API tokens yet')).toBeVisible();
    await expect(section.getByRole('link', { name: /API documentation/ })).toHaveAttribute('href', '/api/docs');
    await section.screenshot({ path: testInfo.outputPath('api-tokens-empty-desktop.png') });

    const form = section.getByRole('form', { name: 'Create an API token' });
    await form.getByLabel('Token name').fill('Weekly report script');
    await form.getByRole('button', { name: 'Create token' }).click();
    const field = section.getByLabel('Your new token');
    await expect(field).toBeFocused();
    const token = await field.inputValue();
    expect(token).toMatch(/^ahp_[A-Za-z0-9_-]{43}$/);
    await expect(section.getByText(/it will not be shown again/)).toBeVisible();
    await section.getByRole('button', { name: 'Copy token' }).click();
    await expect(section.getByText('The token is on your clipboard.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await expectAccessible(page);
    await section.screenshot({ path: testInfo.outputPath('api-tokens-created-desktop.png') });

    // A script's reads, with the token alone; a write is refused.
    const authorization = { authorization: `Bearer ${token}` };
    const summary = await request.get(`${server.baseUrl}/api/analytics/summary`, { headers: authorization });
    expect(summary.status()).toBe(200);
    const write = await request.post(`${server.baseUrl}/api/youtubeanalytics/sync`, { headers: authorization });
    expect(write.status()).toBe(403);
    expect((await write.json()).code).toBe('read_only_token');

    // Shown once: after Done, and after a reload, only its prefix is on the page, with its last use.
    await section.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    const list = page.getByRole('list', { name: 'API tokens' });
    await expect(list.getByText('Weekly report script')).toBeVisible();
    await expect(list.getByText(`${token.slice(0, 12)}…`)).toBeVisible();
    await expect(list.getByText('Never used')).toHaveCount(0);
    expect(await page.content()).not.toContain(token);
    await page.setViewportSize({ width: 390, height: 844 });
    await section.screenshot({ path: testInfo.outputPath('api-tokens-phone.png') });

    await list.getByRole('button', { name: /^Revoke Weekly report script/ }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Revoke “Weekly report script”?' });
    await expect(dialog).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('api-tokens-revoke-phone.png') });
    await dialog.getByRole('button', { name: 'Revoke token' }).click();
    await expect(page.getByText('The token is revoked: it no longer works.')).toBeVisible();
    await expect(page.getByText('No API tokens yet')).toBeVisible();

    const afterRevoke = await request.get(`${server.baseUrl}/api/analytics/summary`, { headers: authorization });
    expect(afterRevoke.status()).toBe(401);
    expect(problems).toEqual([]);
  });
});
