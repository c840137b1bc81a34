// `npm run bench` (after `npm run build`): speed as a user meets it in the browser, on the built app served by the
// real server (its own process and data directory), with Playwright's Chromium at /usr/bin/chromium. A subscribed
// user connects three sandbox platforms and syncs them; then:
//   - first chart visible: from the click on Analytics (dashboard loaded afresh: code cached, data not) to the first
//     chart drawn with its data (data-chart-key, set by Chart.js's afterDraw)           target < 1 s
//   - filter redraw: from a filter select's change to every chart redrawn with the new filters' data
//     (each change a new query: new data is fetched)                                       target < 200 ms
//   - CLS of the dashboard and analytics screens loaded afresh                              target 0
//   - the initial JavaScript, gzip (scripts/initial-javascript.ts)                          target < 100 kB
// Medians of a few runs, printed as a table. Figures to compare over time, not a test: nothing here fails on a time.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { initialJavaScript } from '../scripts/initial-javascript.ts';
import { startSmtpCapture } from '../server/test/smtp-capture.ts';
import { armChartTimer, chartTimerResult } from '../e2e/support/chart-timing.ts';
import { layoutShifts, recordLayoutShifts } from '../e2e/support/layout-shift.ts';
import { startServerProcess } from '../e2e/support/server-process.ts';
import { signInWithTrial } from '../e2e/support/subscribed-user.ts';

const RUNS = 5;
const distDir = path.resolve('dist/web');
const chromiumPath = ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((candidate) => existsSync(candidate));
if (!existsSync(path.join(distDir, 'index.html'))) throw new Error('bench/web.ts measures the built app: run `npm run build` first.');
if (!chromiumPath) throw new Error('No Chromium at /usr/bin/chromium (apt-get install -y chromium fonts-liberation).');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function waitForNoSkeleton(page: Page) {
  await page.waitForFunction(() => document.querySelectorAll('.animate-pulse').length === 0 && document.querySelector('figure canvas') !== null, undefined, {
    timeout: 30_000,
  });
}

const smtp = await startSmtpCapture();
// The first sync of three platforms keeps the event loop busy; load shedding is not what is measured here.
const server = await startServerProcess({ SMTP_URL: smtp.url, OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '60000' });
const browser = await chromium.launch({ executablePath: chromiumPath });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await recordLayoutShifts(page);
  await signInWithTrial(page, server, smtp);
  for (const platform of ['YouTube', 'Instagram', 'TikTok']) {
    await page.goto(`${server.baseUrl}/platforms`);
    await page.getByRole('button', { name: new RegExp(`^Connect ${platform}`) }).click();
    await page.getByRole('radio', { name: /Ivy Chen/ }).check();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByText('Successfully connected!').waitFor();
  }
  await page.goto(`${server.baseUrl}/dashboard`);
  await page.getByRole('button', { name: 'Sync Data' }).click();
  await page.getByText('Syncing...').waitFor();
  await page.getByText('Syncing...').waitFor({ state: 'detached', timeout: 180_000 });

  const cls: Record<string, number[]> = { '/dashboard': [], '/analytics': [] };
  const firstChart: number[] = [];
  const filterRedraw: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Platform Connections' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.animate-pulse').length === 0);
    cls['/dashboard']!.push((await layoutShifts(page)).cls);

    await armChartTimer(page, 'click', 'firstChart');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    firstChart.push(await chartTimerResult(page));
    await waitForNoSkeleton(page);

    // A new query each time: the run's own date range, then a platform.
    await armChartTimer(page, 'change', 'allChartsRedrawn');
    await page.getByLabel('Date Range', { exact: true }).selectOption(['7', '90', '7', '90', '7'][run]!);
    filterRedraw.push(await chartTimerResult(page));
    await armChartTimer(page, 'change', 'allChartsRedrawn');
    await page.getByLabel('Platform', { exact: true }).selectOption({ label: ['YouTube', 'Instagram', 'TikTok', 'Instagram', 'YouTube'][run]! });
    filterRedraw.push(await chartTimerResult(page));

    await page.goto(`${server.baseUrl}/analytics`);
    await waitForNoSkeleton(page);
    cls['/analytics']!.push((await layoutShifts(page)).cls);
  }

  const initial = initialJavaScript(distDir);
  const rows: [string, string, string][] = [
    ['first chart visible after navigation', `${median(firstChart).toFixed(0)} ms (max ${Math.max(...firstChart).toFixed(0)})`, '< 1000 ms'],
    ['filter change redrawn', `${median(filterRedraw).toFixed(0)} ms (max ${Math.max(...filterRedraw).toFixed(0)})`, '< 200 ms'],
    ['CLS /dashboard', Math.max(...cls['/dashboard']!).toFixed(4), '0'],
    ['CLS /analytics', Math.max(...cls['/analytics']!).toFixed(4), '0'],
    ['initial JavaScript (gzip)', `${(initial.gzipBytes / 1024).toFixed(1)} kB in ${initial.files.length} files`, '< 100 kB'],
  ];
  process.stdout.write(`web (Chromium, 1280×800, ${RUNS} runs, medians; CLS the worst run)\n`);
  for (const [name, value, target] of rows) process.stdout.write(`${name.padEnd(40)}${value.padEnd(28)}target ${target}\n`);
} finally {
  await browser.close();
  await server.stop();
  await smtp.close();
}
