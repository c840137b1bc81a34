// Test helpers for platform connections against the platform sandbox: users with premium access (a trial with
// a card, through the Stripe sandbox), and the OAuth round trip a browser would make.
import type { PlatformName } from '#contract/platforms.ts';
import type { PlatformSandbox } from '../../sandbox/platforms/platform-sandbox.ts';
import { GOOD_CARD, sandboxOf, submitHostedForm } from './stripe.ts';
import type { ApiResponse, TestServer } from './test-server.ts';

export type Account = Awaited<ReturnType<TestServer['signUp']>> & { token: string };

export function platformSandboxOf(server: TestServer): PlatformSandbox {
  if (!server.platformSandbox) throw new Error('start the test server with { platforms: true }');
  return server.platformSandbox;
}

/**
 * A signed-in user with premium access: a trial started through checkout with a good card, so it turns into a
 * paid subscription instead of ending when a test moves the clock past the 7 days.
 */
export async function signUpWithAccess(server: TestServer): Promise<Account> {
  const account = (await server.signUp()) as Account;
  const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: {} });
  if (checkout.status !== 200) throw new Error(`checkout failed: ${checkout.status}`);
  await submitHostedForm(sandboxOf(server), checkout.body.url, GOOD_CARD);
  await sandboxOf(server).flushWebhooks();
  const status = await server.request('GET', '/api/stripe/subscription-status', { token: account.token });
  if (!status.body.hasValidAccess) throw new Error('the test user did not get access');
  // The trial-started mail goes out in the background: delivered before a test counts (or refuses) mails.
  await server.mailer.idle();
  return account;
}

/** The code, state and error the platform put on the redirect to /auth/{platform}/callback. */
export function callbackParams(redirectUrl: string) {
  const url = new URL(redirectUrl);
  const get = (name: string) => url.searchParams.get(name) ?? undefined;
  return { path: url.pathname, code: get('code'), state: get('state'), error: get('error'), error_description: get('error_description') };
}

export async function authUrl(server: TestServer, account: Account, platform: PlatformName): Promise<string> {
  const response = await server.request('GET', `/api/oauth/${platform}/auth-url`, { token: account.token });
  if (response.status !== 200) throw new Error(`auth-url answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.authUrl as string;
}

/**
 * auth-url, the consent page (Authorize), and the code and state the browser comes back with. `scopes` leaves only
 * these optional scopes ticked (Google's and TikTok's granular consent); default: all that were requested.
 */
export async function authorizeAt(server: TestServer, account: Account, platform: PlatformName, options: { account?: number; deny?: boolean; scopes?: string[] } = {}) {
  const url = await authUrl(server, account, platform);
  const { redirectUrl } = await platformSandboxOf(server).authorize(url, options);
  return { authUrl: url, redirectUrl, ...callbackParams(redirectUrl) };
}

export function postCallback(server: TestServer, account: Account, platform: PlatformName, body: Record<string, unknown>): Promise<ApiResponse> {
  return server.request('POST', `/api/oauth/${platform}/callback`, { token: account.token, body });
}

/** The whole browser round trip; answers the callback's response. */
export async function connect(server: TestServer, account: Account, platform: PlatformName, options: { account?: number; scopes?: string[] } = {}): Promise<ApiResponse> {
  const { code, state } = await authorizeAt(server, account, platform, options);
  return postCallback(server, account, platform, { code, state });
}
