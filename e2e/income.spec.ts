import { readFile } from 'node:fs/promises';
import { expect, expectAccessible, expectNoSidewaysScroll, test as base, watchPageProblems } from './support/fixtures.ts';
import { startServerProcess, type RunningServer } from './support/server-process.ts';
import { signInWithTrial } from './support/subscribed-user.ts';
import { connectDemoYoutube } from './support/demo-channel.ts';

// The shared worker server's journeys use YouTube's Maya and Theo; this one connects Maya's monetised channel on a
// server of its own (with its own ECB sandbox), so nothing else is linked to her there.
const test = base.extend<object, { incomeServer: RunningServer }>({
  incomeServer: [
    async ({ smtp }, use) => {
      const server = await startServerProcess({ SMTP_URL: smtp.url });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

test.describe('income', () => {
  test('opens from the sidebar, shows the income by source, switches month and day, converts with a dated ECB rate, downloads the CSV', async ({ page, incomeServer: server, smtp }, testInfo) => {
    test.setTimeout(240_000);
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);

    await connectDemoYoutube(page, /Maya/);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Income' }).click();
    await expect(page).toHaveURL(/\/income/);
    await expect(page.getByRole('heading', { name: 'Income', level: 1 })).toBeVisible();
    // YouTube's revenue by month, in US dollars: a total, income per 1,000 views, the stacked chart and the shares.
    await expect(page.getByText(/^\$[\d,]+\.\d{2}$/).first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('img', { name: 'Income by month and source, in USD' })).toBeVisible();
    const shares = page.getByRole('table', { name: /share of income against its share of views/ });
    await expect(shares.getByRole('row', { name: /YouTube/ })).toContainText('100.0%');
    await page.screenshot({ path: testInfo.outputPath('income-desktop.png'), fullPage: true });

    // The grouping never changes the period or its total (issue 24: by month once widened it to whole months).
    const totalIncome = page.getByText('Total income (USD)').locator('xpath=following-sibling::p[1]');
    const byMonthTotal = await totalIncome.textContent();
    await page.getByRole('button', { name: 'By day' }).click();
    await expect(page).toHaveURL(/by=day/);
    await expect(page.getByRole('img', { name: 'Income by day, in USD' })).toBeVisible();
    await expect(totalIncome).toHaveText(byMonthTotal!);
    await page.getByRole('button', { name: 'By month' }).click();
    await expect(page.getByRole('img', { name: 'Income by month and source, in USD' })).toBeVisible();

    const exportGroup = page.getByRole('group', { name: 'Export', exact: true });
    const [csv] = await Promise.all([page.waitForEvent('download'), exportGroup.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(csv.suggestedFilename()).toMatch(/^analytics-hub-income-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}-by-month\.csv$/);
    const lines = (await readFile((await csv.path())!)).subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('Period,Start date,End date,Row,Account,Currency,Amount,Display currency,Amount in display currency,Views,New patrons,Churned patrons,Net patrons');
    expect(lines.some((line) => line.includes(',YouTube ads,') && line.includes(',USD,'))).toBe(true);
    expect(lines.some((line) => line.includes(',YouTube Premium,'))).toBe(true);

    // Shown in euros: converted with the ECB's rate of each day, its source and date beside the amounts.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    const currencyForm = page.getByRole('form', { name: 'Display currency' });
    await currencyForm.getByLabel('Show income in').selectOption('EUR');
    await currencyForm.getByRole('button', { name: 'Save currency' }).click();
    await expect(currencyForm.getByText('Your display currency is saved.')).toBeVisible();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Income' }).click();
    // The rates are fetched by the job a worker queues at start-up: wait for them, reloading.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('income-currency-note')).toContainText(/1 USD = \d\.\d{4} EUR \(European Central Bank, \w{3} \d{1,2}, \d{4}\)/, { timeout: 3_000 });
    }).toPass({ timeout: 90_000 });
    await expect(page.getByText(/^€[\d,]+\.\d{2}$/).first()).toBeVisible();
    await expectAccessible(page);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath('income-phone.png'), fullPage: true });
    await expectNoSidewaysScroll(page);
    expect(problems).toEqual([]);
  });
});
