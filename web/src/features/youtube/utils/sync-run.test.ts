import { describe, expect, it } from 'vitest';
import type { ConnectionSyncStatus } from '../../../../../contract/analytics';
import { syncRunState } from './sync-run';

const status = (overrides: Partial<ConnectionSyncStatus>): ConnectionSyncStatus => ({
  connectionId: 4,
  platformName: 'YouTube',
  status: 'idle',
  message: null,
  lastSyncedAt: null,
  nextRunAt: null,
  ...overrides,
});

describe('syncRunState', () => {
  it('is running until a status arrives and while the sync is queued or running', () => {
    expect(syncRunState(undefined, 4)).toEqual({ kind: 'running' });
    expect(syncRunState([status({ status: 'queued' })], 4)).toEqual({ kind: 'running' });
    expect(syncRunState([status({ status: 'running' }), status({ connectionId: 5, status: 'idle' })], 4)).toEqual({ kind: 'running' });
  });

  it('is done when the connection is idle again, or gone', () => {
    expect(syncRunState([status({ status: 'idle' })], 4)).toEqual({ kind: 'done' });
    expect(syncRunState([], 4)).toEqual({ kind: 'done' });
  });

  it('carries the reason of a failed sync', () => {
    expect(syncRunState([status({ status: 'failed', message: 'YouTube refused the token.' })], 4)).toEqual({
      kind: 'failed',
      message: 'YouTube refused the token.',
    });
    expect(syncRunState([status({ status: 'failed', message: ' ' })], 4)).toEqual({ kind: 'failed', message: 'The sync failed.' });
  });
});
