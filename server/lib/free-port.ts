import { createServer } from 'node:net';

/**
 * A port that is free right now. For a server whose address someone else must know before it listens:
 * the Stripe sandbox needs the app's webhook URL before the app (which needs the sandbox's key) is built.
 */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
