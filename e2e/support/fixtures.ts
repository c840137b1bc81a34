// Playwright fixtures: a real server process per worker (mail to a real SMTP server started here, or to
// the sandbox mailbox), plus helpers to create users and check accessibility.
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { CONFIRMATION_SUBJECT, confirmationLink, type CapturedMail, startSmtpCapture } from '../../server/test/smtp-capture.ts';
import { type RunningServer, startServerProcess } from './server-process.ts';

type SmtpCapture = Awaited<ReturnType<typeof startSmtpCapture>>;

interface WorkerFixtures {
  smtp: SmtpCapture;
  /** The product with its mail going to `smtp`. */
  server: RunningServer;
  /** The product with no SMTP_URL: mail lands in the sandbox mailbox at /sandbox/mail. */
  sandboxServer: RunningServer;
}

interface TestFixtures {
  /**
   * A server of this test's own (never shared, not even with another test of the same worker), mail to `smtp`, for a
   * journey that links demo accounts no other journey may take. Its first syncs of several platforms keep the event
   * loop busy: load shedding is not under test.
   */
  ownServer: RunningServer;
}

let counter = 0;
export function newAccount() {
  counter += 1;
  const suffix = `${process.pid % 10000}${Date.now() % 100000}${counter}`;
  return { username: `creator_${suffix}`, email: `creator_${suffix}@example.com`, password: 'a long test passphrase' };
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  ownServer: [
    async ({ smtp }, use) => {
      const server = await startServerProcess({ SMTP_URL: smtp.url, OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '60000' });
      await use(server);
      await server.stop();
    },
    { timeout: 90_000 },
  ],
  smtp: [
    async ({}, use) => {
      const smtp = await startSmtpCapture();
      await use(smtp);
      await smtp.close();
    },
    { scope: 'worker' },
  ],
  server: [
    async ({ smtp }, use) => {
      const server = await startServerProcess({ SMTP_URL: smtp.url });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  sandboxServer: [
    async ({}, use) => {
      const server = await startServerProcess();
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

export { expect };

/**
 * The mail to `email` with this subject (the sign-up confirmation unless told): the welcome and the trial mails go to
 * the same address, so a journey names the mail it means.
 */
export async function waitForMail(smtp: SmtpCapture, email: string, subject = CONFIRMATION_SUBJECT): Promise<CapturedMail> {
  return smtp.waitFor((mail) => mail.to.includes(email) && mail.subject === subject);
}

export { confirmationLink };

/** Creates a confirmed account through the API (the UI journey is tested on its own). */
export async function createConfirmedAccount(server: RunningServer, smtp: SmtpCapture) {
  const account = newAccount();
  const registered = await fetch(`${server.baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  expect(registered.status).toBe(201);
  const link = new URL(confirmationLink(await waitForMail(smtp, account.email)));
  const confirmed = await fetch(`${server.baseUrl}/api/auth/confirm-email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId: Number(link.searchParams.get('userId')), token: link.searchParams.get('token') }),
  });
  expect(confirmed.status).toBe(200);
  return account;
}

export async function signInThroughUi(page: Page, server: RunningServer, account: { username: string; password: string }) {
  await page.goto(`${server.baseUrl}/login`);
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** No serious or critical axe-core violations on the current page. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`)).toEqual([]);
}

/**
 * Nothing on the page is wider than the viewport, once the page has settled: right after a resize, a chart's canvas
 * keeps its old width until Chart.js's ResizeObserver redraws it a frame or two later (CI saw a 448 px doughnut from
 * the desktop layout on a 390 px phone), so the width is polled until it fits.
 */
export async function expectNoSidewaysScroll(page: Page) {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), { message: 'the page scrolls sideways' })
    .toBeLessThanOrEqual(0);
}

/** Collects Content-Security-Policy violations and uncaught page errors, so a test can assert there are none. */
export function watchPageProblems(page: Page) {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/.test(message.text())) problems.push(message.text());
  });
  return problems;
}
