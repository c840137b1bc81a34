// The tests' job driver runs what a worker would find due, and only that: a job sent just before a drain is run by it
// (also when the send and the fetch fall in one millisecond of PGlite's clock, which this loop may or may not meet),
// a job whose start is to come is not. Both databases.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDefinition } from '../jobs/job-definition.ts';
import { createJobQueue } from '../jobs/job-queue.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';
import { createJobDriver } from './jobs.ts';

const echo: JobDefinition<{ n: number }> = {
  name: 'driver-echo',
  queue: { policy: 'standard', retryLimit: 0 },
  work: { pollingIntervalSeconds: 5 },
  handle: async (job) => job.data.n,
};

let database: TestDatabase;
let jobQueue: ReturnType<typeof createJobQueue>;
beforeAll(async () => {
  database = await createTestDatabase();
  jobQueue = createJobQueue({ database: { kind: database.handle.kind, pglite: database.handle.pglite, url: database.url }, workers: false, logger: pino({ level: 'silent' }) });
  await jobQueue.start([echo]);
});
afterAll(async () => {
  await jobQueue?.stop();
  await database?.drop();
});

describe('createJobDriver', () => {
  it('runs a job sent the moment before, every time', async () => {
    const driver = createJobDriver(jobQueue, echo);
    const outcomes: unknown[] = [];
    for (let n = 0; n < 40; n += 1) {
      await jobQueue.boss.send(echo.name, { n });
      outcomes.push(...(await driver.drain()));
    }
    expect(outcomes).toEqual(Array.from({ length: 40 }, (_, n) => ({ ok: true, result: n })));
  });

  it('leaves a job whose start is still to come', async () => {
    const driver = createJobDriver(jobQueue, echo);
    await jobQueue.boss.send(echo.name, { n: 99 }, { startAfter: 60 });
    expect(await driver.drain()).toEqual([]);
    expect(await driver.drain({ ignoreStartAfter: true })).toEqual([{ ok: true, result: 99 }]);
  });
});
