import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// Debian's Chromium; Playwright's own browser download cannot reach its CDN from these machines.
const chromiumPath = ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((candidate) => existsSync(candidate));
if (!chromiumPath) {
  throw new Error('No Chromium found at /usr/bin/chromium: install it with `apt-get install -y chromium fonts-liberation` (.ci/run does this).');
}

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    headless: true,
    launchOptions: { executablePath: chromiumPath },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
