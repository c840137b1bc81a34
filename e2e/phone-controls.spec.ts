// On a phone (390 × 844, touch) no control is clipped: on every signed-in screen, with a demo channel connected and
// synced so the screens have their data, each visible button, link, input and select lies inside the viewport's width,
// those in a table that scrolls sideways included (a link past the edge of its scroll region is out of reach until
// one thinks of scrolling it, as the invoice PDF link was). One account, one sync: CI's time is tight.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { expectFirstSyncDone } from './support/demo-channel.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

const PHONE = { width: 390, height: 844 };

/**
 * The signed-in screens (Forecasts is a card of Analytics, checked with it; the notices and the phone's menu are opened
 * below), each
 * with a control that shows its data is on it: the checks are of a screen with its rows, not of its empty state.
 */
const SCREENS: { path: string; shows: (page: Page) => ReturnType<Page['getByRole']> }[] = [
  { path: '/dashboard', shows: (page) => page.getByRole('button', { name: 'Sync Data' }) },
  { path: '/analytics', shows: (page) => page.getByRole('region', { name: /^Posts, sorted by/ }) },
  { path: '/youtube', shows: (page) => page.getByRole('button', { name: /^View details/ }).first() },
  { path: '/income', shows: (page) => page.getByRole('main').getByRole('combobox').first() },
  { path: '/platforms', shows: (page) => page.getByRole('button', { name: /^Connect Instagram/ }) },
  { path: '/settings', shows: (page) => page.getByRole('main').getByRole('button').first() },
  // The trial's first invoice ($0): its PDF link is the one a phone once showed cut off.
  { path: '/billing', shows: (page) => page.getByRole('link', { name: /^PDF of invoice / }) },
];

/** Waits until no skeleton pulses and no loading line is left on the screen. */
async function settled(page: Page) {
  await expect(page.locator('.animate-pulse')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByText(/^Loading/)).toHaveCount(0, { timeout: 30_000 });
}

/**
 * Every visible control whose box reaches past either side of the viewport, described by its role, name and box.
 * Visible: laid out bigger than a pixel (not the 1 px of a screen-reader-only text), not hidden by visibility, and
 * not inside a closed <details>.
 */
function controlsOutsideViewport(page: Page): Promise<string[]> {
  return page.evaluate((viewportWidth) => {
    window.scrollTo(0, window.scrollY);
    const selector = 'button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [role="link"], [role="tab"], [role="switch"], [role="checkbox"], [role="radio"]';
    const outside: string[] = [];
    for (const element of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      const box = element.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
      if (element.closest('details:not([open])') && !element.closest('summary')) continue;
      // A sighted user's control: the screen-reader-only ones are 1 px (above); a skip link off-screen until focused is
      // moved back by its focus style, so it is judged focused, as it is seen.
      if (box.left >= 0 && box.right <= viewportWidth + 0.5) continue;
      const name = (element.getAttribute('aria-label') ?? element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
      outside.push(`${element.tagName.toLowerCase()} "${name}" at x ${Math.round(box.left)}–${Math.round(box.right)}`);
    }
    return outside;
  }, PHONE.width);
}

test.describe('controls on a phone', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('every screen, its notices menu included, keeps each control inside a 390 px viewport', async ({ page, ownServer: server, smtp }) => {
    await signInWithTrial(page, server, smtp);
    // The small demo channel: its first sync is the quickest, and it gives every screen YouTube's data. (The phone has
    // no sidebar link to Platforms until its menu opens, hence the address.)
    await page.goto(`${server.baseUrl}/platforms`);
    await page.getByRole('button', { name: /^Connect YouTube/ }).click();
    await page.getByRole('radio', { name: /Ivy Chen/ }).check();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expect(page.getByText('Successfully connected!')).toBeVisible();
    await expectFirstSyncDone(page);

    for (const { path, shows } of SCREENS) {
      await page.goto(`${server.baseUrl}${path}`);
      await expect(shows(page), `${path} shows its data`).toBeVisible({ timeout: 30_000 });
      await settled(page);
      expect.soft(await controlsOutsideViewport(page), `controls outside the viewport on ${path}`).toEqual([]);
    }

    // The header's notices menu, opened over the Dashboard.
    await page.goto(`${server.baseUrl}/dashboard`);
    await settled(page);
    await page.getByRole('button', { name: /^Notices/ }).click();
    await expect(page.getByRole('region', { name: 'Notices' })).toBeVisible();
    await settled(page);
    expect.soft(await controlsOutsideViewport(page), 'controls outside the viewport with the notices menu open').toEqual([]);
    await page.keyboard.press('Escape');

    // The menu a phone opens in place of the sidebar.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    expect.soft(await controlsOutsideViewport(page), 'controls outside the viewport with the menu open').toEqual([]);
  });
});
