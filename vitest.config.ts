import { defineConfig } from 'vitest/config';

// Two kinds of tests: the server, contract and sandbox (Node, real databases, real HTTP) and the web app's
// pure functions and components (jsdom). `npm run test:unit` runs both.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'contract/**/*.test.ts', 'sandbox/**/*.test.ts'],
          globalSetup: ['./server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/src/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});
