// How the built web app is delivered: scripts and styles compressed at build time and sent to browsers that
// accept them, hashed files cached for good, and the page itself checked on every load (a new build shows at once).
import { expect, test } from './support/fixtures.ts';

test.describe('the built web app', () => {
  test('sends hashed assets compressed and cacheable for a year, and the page revalidated on every load', async ({ page, server }) => {
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.url());
    });
    const document = await page.goto(`${server.baseUrl}/login`);
    expect(document!.headers()['cache-control']).toBe('no-cache');
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    expect(scripts.length).toBeGreaterThan(0);

    const entry = scripts.find((url) => /\/assets\/index-[\w-]+\.js$/.test(url))!;
    expect(entry).toBeDefined();
    const request = page.context().request;
    const plain = await request.get(entry, { headers: { 'accept-encoding': 'identity' } });
    const plainBody = await plain.body();
    expect(plain.headers()['content-encoding']).toBeUndefined();
    expect(plain.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers().vary).toContain('accept-encoding');

    for (const encoding of ['br', 'gzip']) {
      const compressed = await request.get(entry, { headers: { 'accept-encoding': encoding } });
      expect(compressed.headers()['content-encoding']).toBe(encoding);
      expect(compressed.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Number(compressed.headers()['content-length'])).toBeLessThan(plainBody.length / 2);
      // Playwright decodes the body: the same script, byte for byte.
      expect((await compressed.body()).equals(plainBody)).toBe(true);
    }
  });
});
