// The test server's own guarantees that other tests rely on.
import { expect, it } from 'vitest';
import { confirmationLinkParams, isConfirmationMailTo } from './smtp-capture.ts';
import { startTestServer } from './test-server.ts';

it('checklist 25: closing a server fails when a platform secret reached a response or a log line', async () => {
  const server = await startTestServer({ platforms: true });
  const [clientSecret] = Object.values(server.platformSandbox!.credentials).map((credential) => credential.clientSecret);
  expect(server.platformSandbox!.issuedSecrets()).toContain(clientSecret);
  server.app.log.info({ clumsy: `prefix ${clientSecret} suffix` }, 'a careless log line');
  await expect(server.close()).rejects.toThrow(/checklist 25: platform secrets left the backend/);
});

it('checklist 40: closing a server fails when a password, a session token or a confirmation token reached a log line', async () => {
  for (const leak of ['password', 'token', 'confirmation'] as const) {
    const server = await startTestServer();
    const account = await server.signUp({ password: 'a distinctive passphrase 7' });
    const mail = await server.smtp.waitFor((message) => isConfirmationMailTo(message, account.email));
    const secret = { password: account.password, token: account.token!.split('.')[1]!, confirmation: confirmationLinkParams(mail).token }[leak];
    server.app.log.info({ careless: `[${secret}]` }, 'a careless log line');
    await expect(server.close(), leak).rejects.toThrow(/checklist 40: credentials were written to the log/);
  }
});
