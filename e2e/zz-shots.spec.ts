import { expect, test as base } from './support/fixtures.ts';
import { startServerProcess, type RunningServer } from './support/server-process.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

const test = base.extend<object, { shotServer: RunningServer }>({
  shotServer: [
    async ({ smtp }, use) => {
      const server = await startServerProcess({ SMTP_URL: smtp.url });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

test('shots', async ({ page, shotServer: server, smtp }) => {
  test.setTimeout(300_000);
  await signInWithTrial(page, server, smtp);
  await page.goto(`${server.baseUrl}/platforms`);
  await page.getByRole('button', { name: /^Connect YouTube/ }).click();
  await page.getByRole('radio', { name: /Theo Park/ }).check();
  await page.getByRole('button', { name: 'Authorize' }).click();
  await expect(page.getByText('Successfully connected!')).toBeVisible();
  await page.goto(`${server.baseUrl}/youtube`);
  for (let i = 0; i < 5; i++) {
    await page.getByRole('button', { name: 'Sync Latest Data' }).click();
    await expect(page.getByRole('button', { name: 'Sync Latest Data' })).toBeVisible({ timeout: 180_000 });
  }
  const table = page.getByRole('table', { name: /^Video Performance/ });
  await table.getByRole('row').nth(1).getByRole('button').first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Analyze Viral Potential' }).click();
  await expect(dialog.getByRole('meter', { name: 'Viral potential score' })).toBeVisible({ timeout: 30_000 });
  await dialog.getByText(/chance|top 10 %|Not enough|too early/i).first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/shot-viral.png' });
  await page.keyboard.press('Escape');
  await page.goto(`${server.baseUrl}/analytics`);
  await expect(page.getByRole('heading', { name: 'Best time to post' })).toBeVisible();
  await page.waitForTimeout(3000);
  await page.screenshot({ path: '/tmp/shot-analytics.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: '/tmp/shot-analytics-phone.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.baseUrl}/api/docs`);
  await page.waitForTimeout(3000);
  await page.screenshot({ path: '/tmp/shot-docs.png' });
});
