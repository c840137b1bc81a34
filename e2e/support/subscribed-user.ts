// A signed-in user with a running trial, made through the real checkout of the Stripe sandbox.
import type { Page } from '@playwright/test';
import { createConfirmedAccount, expect, signInThroughUi } from './fixtures.ts';
import type { RunningServer } from './server-process.ts';

type Smtp = Parameters<typeof createConfirmedAccount>[1];

export async function signInWithTrial(page: Page, server: RunningServer, smtp: Smtp) {
  const account = await createConfirmedAccount(server, smtp);
  await signInThroughUi(page, server, account);
  await startTrialFromBilling(page);
  return account;
}

/** A signed-in user without a plan, sent to Billing: the sandbox checkout, until the trial shows. */
export async function startTrialFromBilling(page: Page) {
  await expect(page).toHaveURL(/\/billing\?upgrade=true$/);
  await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
  await expect(page.getByRole('heading', { name: 'Subscribe to Pro' })).toBeVisible();
  await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
  await expect(page.getByText('Payment Successful!')).toBeVisible();
  await expect(page.getByText('Trial', { exact: true })).toBeVisible();
}
