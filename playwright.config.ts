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
  // Guards against a hang, never a speed bound (speed is `npm run bench`'s): on a slow day a journey that passes took
  // 57 s (the analytics one), against the 60 s this was. An expectation's wait ends as soon as it holds.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  use: {
    headless: true,
    launchOptions: { executablePath: chromiumPath },
    // A failed journey keeps its trace (actions, DOM snapshots, network) and a screenshot of the failure. The trace's
    // screencast is left out: encoding a frame of every paint cost a quarter of the journeys' CPU (the late-answers
    // journey alone: 59 s of CPU with it, 45 s without, 41 s with no trace), on the two cores the server shares.
    // E2E_TRACE=off (.ci/run): CI's log is all that is read of a CI run, and a trace costs a tenth of the journeys' CPU.
    trace: { mode: process.env.E2E_TRACE === 'off' ? 'off' : 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
  },
});
