import os from 'node:os';
import { defineConfig } from 'vitest/config';
import HeavyFirstSequencer from './scripts/heavy-first-sequencer.ts';

// Three kinds of tests:
// - server: the server's own tests, most on a real database (PGlite, or PostgreSQL with DATABASE_URL) over real HTTP;
// - sandbox: the sandbox stand-ins and the contract, which never touch the database (CI runs them once, not per
//   database);
// - web: the web app's pure functions and components (jsdom).
// `npm run test:unit` runs all three; `npm run test:server` only what depends on the database.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on CI's two. Most server tests wait on a
    // database or a child process as much as they compute, so two workers keep both cores busy.
    maxWorkers: Math.max(2, os.availableParallelism()),
    // The longest files first, also on a fresh clone without Vitest's cache of durations.
    sequence: { sequencer: HeavyFirstSequencer },
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts'],
          globalSetup: ['./server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Files share a worker's module graph instead of importing the whole server again each (about 2 s a file,
          // 190 files). Every file builds its own database, server and clock through server/test/, and no server test
          // mocks a module, so nothing one file does reaches the next but what it leaves running, which each closes.
          isolate: false,
        },
      },
      {
        test: {
          name: 'sandbox',
          environment: 'node',
          include: ['sandbox/**/*.test.ts', 'contract/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          isolate: false,
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['./web/src/test/setup.ts'],
        },
      },
    ],
  },
});
