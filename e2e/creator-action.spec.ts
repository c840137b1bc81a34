// A refusal only the creator can fix, as a creator meets it: the platform sandbox's fault injector makes TikTok refuse
// the video list with its scope error once; the first sync stops and the Platforms page says what to do, in words,
// with Retry; pressed (the platform answers again), the sync runs and the note goes.
import { expect, test, watchPageProblems } from './support/fixtures.ts';
import type { RunningServer } from './support/server-process.ts';
import { signInWithTrial } from './support/subscribed-user.ts';

/** The platform sandbox's address, as the server logged it at start-up. */
function platformSandboxUrl(server: RunningServer): string {
  for (const line of server.output().split('\n')) {
    if (!line.includes('platform sandbox:')) continue;
    const url = (JSON.parse(line) as { url?: string }).url;
    if (url) return url;
  }
  throw new Error('the server did not log its platform sandbox');
}

test.describe('a refusal only the creator can fix', () => {
  test('TikTok refuses the video list: the Platforms page says what to do, and Retry clears it', async ({ page, server, smtp }) => {
    test.setTimeout(180_000);
    const problems = watchPageProblems(page);
    await signInWithTrial(page, server, smtp);
    const faults = `${platformSandboxUrl(server)}/_sandbox/faults`;
    // TikTok's answer outside the grant (platform-apis.md §3.4), once.
    const injected = await fetch(faults, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        platform: 'tiktok',
        method: 'POST',
        path: '/v2/video/list',
        status: 401,
        body: { data: {}, error: { code: 'scope_not_authorized', message: 'The user did not authorize the scope required for completing this request.', log_id: '202612080000000000000000' } },
        times: 1,
      }),
    });
    expect(injected.status).toBe(201);

    await page.getByRole('link', { name: 'Platforms' }).click();
    await page.getByRole('button', { name: /^Connect TikTok/ }).click();
    await page.getByRole('radio', { name: /Theo Park/ }).check();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expect(page.getByText('Successfully connected!')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Its first sync has not finished: the account below says why.')).toBeVisible({ timeout: 60_000 });

    const note = page.getByText(/^TikTok did not give us permission to read this: connect TikTok again and leave every permission ticked, then press Retry\.$/);
    await expect(note).toBeVisible();
    const retry = page.getByRole('button', { name: /^Retry TikTok/ });
    await expect(retry).toBeVisible();
    await retry.click();
    await expect(note).toHaveCount(0, { timeout: 60_000 });
    await expect(retry).toHaveCount(0);
    const fired = (await (await fetch(faults)).json()) as { spent: { fired: number }[] };
    expect(fired.spent.map((fault) => fault.fired)).toEqual([1]);
    expect(problems).toEqual([]);
  });
});
