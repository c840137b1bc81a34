// The test server's own guarantees that other tests rely on.
import { expect, it } from 'vitest';
import { startTestServer } from './test-server.ts';

it('checklist 25: closing a server fails when a platform secret reached a response or a log line', async () => {
  const server = await startTestServer({ platforms: true });
  const [clientSecret] = Object.values(server.platformSandbox!.credentials).map((credential) => credential.clientSecret);
  expect(server.platformSandbox!.issuedSecrets()).toContain(clientSecret);
  server.app.log.info({ clumsy: `prefix ${clientSecret} suffix` }, 'a careless log line');
  await expect(server.close()).rejects.toThrow(/checklist 25: platform secrets left the backend/);
});
