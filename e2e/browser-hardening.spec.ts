// Checklists 14 and 15 on the built web app in a real browser: the pages carry the strict headers, and hostile text in
// whatever the API answers (video titles, channel names, bios, messages) is shown as text on every page, never run.
// Session tokens live in localStorage, so this is the test that matters most.
import type { Page, Route } from '@playwright/test';
import { expect, test as base, watchPageProblems } from './support/fixtures.ts';
import { type RunningServer, startServerProcess } from './support/server-process.ts';
import { expectFirstSyncDone } from './support/demo-channel.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

// Each sandbox platform account links to one Analytics Hub user: a server of its own, so this journey may pick any.
const test = base.extend<object, { hardenedServer: RunningServer }>({
  hardenedServer: [
    async ({ smtp }, use) => {
      const server = await startServerProcess({ SMTP_URL: smtp.url });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

const PAYLOADS = [
  '<img src=x onerror=window.__x=1>',
  '"><svg onload=window.__x=1>',
  "'><script>window.__x=1</script>",
  '<iframe srcdoc="<script>parent.__x=1</script>">',
  '<a href="javascript:window.__x=1">x</a>',
];
/** The fields of API answers that hold text from a platform or a user. */
const TEXT_FIELD = /title|name|description|bio|label|caption|message|username|handle|text|insight|summary|reason/i;

/** Puts a payload in front of every text field of a JSON value. */
function poison(value: unknown, key = '', counter = { next: 0 }): unknown {
  if (typeof value === 'string') {
    if (!TEXT_FIELD.test(key) || /url$/i.test(key)) return value;
    const payload = PAYLOADS[counter.next++ % PAYLOADS.length]!;
    return `${payload}${value}`;
  }
  if (Array.isArray(value)) return value.map((item) => poison(item, key, counter));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([field, item]) => [field, poison(item, field, counter)]));
  return value;
}

/** Every JSON answer of the API reaches the page with hostile text in it (the event stream passes untouched). */
async function poisonApiAnswers(page: Page) {
  await page.route('**/api/**', async (route: Route) => {
    if (new URL(route.request().url()).pathname === '/api/events/stream') return route.continue();
    const response = await route.fetch();
    if (!(response.headers()['content-type'] ?? '').includes('application/json')) return route.fulfill({ response });
    return route.fulfill({ response, json: poison(await response.json()) });
  });
}

async function expectNothingRan(page: Page, where: string) {
  await page.waitForLoadState('networkidle');
  expect({ where, ran: await page.evaluate(() => (window as unknown as { __x?: unknown }).__x) }).toEqual({ where, ran: undefined });
  expect({ where, scripts: await page.locator('script:not([src])').count() }).toEqual({ where, scripts: 0 });
}

test.describe('browser hardening', () => {
  test('checklist 14: the built pages, the OAuth callback page and their assets carry the strict policy and headers', async ({ hardenedServer: server }) => {
    for (const path of ['/', '/login', '/dashboard', '/auth/youtube/callback?code=abc&state=def']) {
      const response = await fetch(`${server.baseUrl}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      const html = await response.text();
      expect(html).toContain('<div id="root">');
      // No inline script the policy would have to allow.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      const csp = response.headers.get('content-security-policy') ?? '';
      const directives = Object.fromEntries(csp.split(';').map((directive) => directive.trim().split(/\s+/)).map(([key, ...values]) => [key, values.join(' ')]));
      expect(directives).toMatchObject({ 'script-src': "'self'", 'object-src': "'none'", 'base-uri': "'none'", 'frame-ancestors': "'none'" });
      expect(csp).not.toMatch(/unsafe-(inline|eval)/);
      expect(Number(/max-age=(\d+)/.exec(response.headers.get('strict-transport-security') ?? '')?.[1])).toBeGreaterThanOrEqual(31_536_000);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  test('checklist 15: hostile titles, names and bios from the API are shown as text on every page and never run', async ({ page, hardenedServer: server, smtp }) => {
    test.setTimeout(180_000);
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);

    // Real data first: a YouTube channel and an Instagram account, synced.
    await page.getByRole('link', { name: 'Platforms' }).click();
    for (const platform of ['YouTube', 'Instagram']) {
      await page.getByRole('button', { name: new RegExp(`^Connect ${platform}`) }).click();
      await page.getByRole('radio').nth(2).check();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await expect(page.getByText('Successfully connected!')).toBeVisible();
      // Back on Platforms, where the connection's own first sync runs.
      await expectFirstSyncDone(page);
    }

    // From here on, every answer carries the payloads.
    await poisonApiAnswers(page);
    for (const path of ['/dashboard', '/analytics', '/youtube', '/platforms', '/settings', '/billing']) {
      await page.goto(`${server.baseUrl}${path}`);
      await expect(page.getByRole('main')).toBeVisible();
      await expectNothingRan(page, path);
    }
    // The payloads did reach the pages, as text.
    await page.goto(`${server.baseUrl}/platforms`);
    await expect(page.getByText(PAYLOADS[0]!, { exact: false }).or(page.getByText(PAYLOADS[1]!, { exact: false })).first()).toBeVisible();
    await page.goto(`${server.baseUrl}/youtube`);
    const videos = page.getByRole('table', { name: /^Video Performance/ });
    await expect(videos.getByText(/onerror|onload|<script>|srcdoc|javascript:/).first()).toBeVisible();
    // A video's own view (titles, traffic sources, viral potential).
    await videos.getByRole('button').or(videos.getByRole('link')).first().click();
    await expectNothingRan(page, 'video detail');

    // A request the page makes as the test ends (a refetch) would still be in the poisoning handler when the context
    // closes, and its answer disposed under it (a CI run failed on "apiResponse.json: Response has been disposed"):
    // the handler is removed first, and a call still in it is let go.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    expect(problems).toEqual([]);
  });
});
