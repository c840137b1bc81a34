import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import HeavyFirstSequencer from './scripts/heavy-first-sequencer.ts';

// Three kinds of tests (four projects):
// - server: the server's own tests, most on a real database (PGlite, or PostgreSQL with DATABASE_URL) over real HTTP;
// - sandbox: the sandbox stand-ins and the contract, which never touch the database (CI runs them once, not per
//   database);
// - web and web-mocking: the web app's pure functions and components (jsdom); web-mocking holds the files that
//   replace modules, each isolated.
// `npm run test:unit` runs all three; `npm run test:server` only what depends on the database.
/**
 * The web test files that need a module graph of their own, found by reading them: those that replace a module
 * (vi.mock, vi.doMock, vi.resetModules) and those marked `@own-module-graph` (one that imports a module afresh).
 */
const webTestsThatMock = readdirSync('web/src', { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => path.join('web/src', file))
  .filter((file) => /vi\.(mock|doMock|resetModules)\(|@own-module-graph/.test(readFileSync(file, 'utf8')));

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
          // A timeout guards against a hang; it never measures speed (that is `npm run bench`). CI runs four workers
          // on two cores beside PostgreSQL, on machines whose speed moves by half from one day to the next: honest
          // tests took two thirds of the 30 s this was (a demo channel's best-time grid, 19 s of a PGlite run).
          testTimeout: 120_000,
          hookTimeout: 180_000,
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
          // As the server's: a guard against a hang, on a loaded machine.
          testTimeout: 120_000,
          hookTimeout: 180_000,
          isolate: false,
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/src/**/*.test.{ts,tsx}'],
          exclude: webTestsThatMock,
          setupFiles: ['./web/src/test/setup.ts'],
          // Each file still gets its own DOM; the files share a worker's modules (React, chart.js, the app) instead of
          // importing them again each: the web tests took 141 s of CPU isolated, 34 s shared (issue 26).
          isolate: false,
        },
      },
      {
        test: {
          // The web tests that replace a module or import one afresh: each on its own module graph, so one file's
          // stand-in never reaches another file's imports.
          name: 'web-mocking',
          environment: 'jsdom',
          include: webTestsThatMock.length > 0 ? webTestsThatMock : ['web/src/no-such-file'],
          setupFiles: ['./web/src/test/setup.ts'],
        },
      },
    ],
  },
});
