// The steps most journeys begin with: connect one of the YouTube sandbox's demo channels through its consent screen,
// which lands back on Platforms where the channel's first sync starts by itself. Each demo channel links to one
// Analytics Hub user per server: journeys sharing a server pick different channels.
import { expect, type Page } from '@playwright/test';
import type { RunningServer } from './server-process.ts';

/** On Platforms after a connection: the banner says the new account's first sync has finished. */
export async function expectFirstSyncDone(page: Page, timeout = 120_000) {
  await expect(page.getByText('Its first sync is done: its numbers are on the Dashboard.')).toBeVisible({ timeout });
}

/**
 * From any signed-in screen: Platforms → Connect YouTube → the demo channel whose name matches → back on Platforms,
 * connected, and (unless told not to wait) synced: the connection's first sync starts by itself.
 */
export async function connectDemoYoutube(page: Page, channel: RegExp, { waitForFirstSync = true } = {}) {
  await page.getByRole('link', { name: 'Platforms' }).click();
  await page.getByRole('button', { name: /^Connect YouTube/ }).click();
  await page.getByRole('radio', { name: channel }).check();
  await page.getByRole('button', { name: 'Authorize' }).click();
  await expect(page.getByText('Successfully connected!')).toBeVisible();
  await expect(page).toHaveURL(/\/platforms$/);
  if (waitForFirstSync) await expectFirstSyncDone(page);
}

/** The dashboard's Sync Data, until every sync it started has finished. */
export async function syncFromDashboard(page: Page, server: RunningServer, timeout = 90_000) {
  await page.goto(`${server.baseUrl}/dashboard`);
  await page.getByRole('button', { name: 'Sync Data' }).click();
  await expect(page.getByText('Syncing...')).toBeVisible();
  await expect(page.getByText('Syncing...')).toHaveCount(0, { timeout });
}
