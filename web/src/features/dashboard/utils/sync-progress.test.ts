import { describe, expect, it } from 'vitest';
import type { ConnectionSyncStatus } from '../../../../../contract/analytics';
import { syncProgress } from './sync-progress';

const status = (connectionId: number, state: ConnectionSyncStatus['status'], message: string | null = null): ConnectionSyncStatus => ({
  connectionId,
  platformName: `Platform ${connectionId}`,
  status: state,
  message,
  lastSyncedAt: null,
  nextRunAt: null,
});

describe('syncProgress', () => {
  it('is not done before the first answer', () => {
    expect(syncProgress(undefined, [1])).toEqual({ done: false, failures: [] });
  });

  it('is not done while a watched connection is queued or running; others do not count', () => {
    expect(syncProgress([status(1, 'queued'), status(2, 'idle')], [1, 2]).done).toBe(false);
    expect(syncProgress([status(1, 'running')], [1]).done).toBe(false);
    expect(syncProgress([status(1, 'idle'), status(9, 'running')], [1]).done).toBe(true);
  });

  it('is done when every watched one is idle or failed, and lists the failures with their messages', () => {
    expect(syncProgress([status(1, 'idle'), status(2, 'failed', 'Token expired'), status(3, 'failed', ' ')], [1, 2, 3])).toEqual({
      done: true,
      failures: [
        { connectionId: 2, platformName: 'Platform 2', message: 'Token expired' },
        { connectionId: 3, platformName: 'Platform 3', message: 'The sync failed.' },
      ],
    });
  });
});
