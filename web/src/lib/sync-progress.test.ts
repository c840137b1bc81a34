import { describe, expect, it } from 'vitest';
import type { ConnectionSyncStatus } from '#contract/analytics.ts';
import { mayPoll, SYNC_STATUS_POLL_LIMIT_MS, syncingLabel, syncProgress, syncRunState } from './sync-progress';

const status = (connectionId: number, state: ConnectionSyncStatus['status'], message: string | null = null): ConnectionSyncStatus => ({
  connectionId,
  platformName: `Platform ${connectionId}`,
  status: state,
  pausedReason: state === 'paused' ? 'subscription_ended' : null,
  message,
  pause: null,
  lastSyncedAt: null,
  nextRunAt: null,
  lastFailedAt: null,
  attempts: 0,
  state: state === 'paused' ? 'paused' : state === 'failed' ? 'failed' : 'ok',
  missingParts: [],
  action: null,
});

describe('syncProgress', () => {
  it('is not done before the first answer', () => {
    expect(syncProgress(undefined, [1])).toEqual({ done: false, finished: 0, total: 1, failures: [] });
  });

  it('is not done while a watched connection is queued or running; others do not count', () => {
    expect(syncProgress([status(1, 'queued'), status(2, 'idle')], [1, 2]).done).toBe(false);
    expect(syncProgress([status(1, 'running')], [1]).done).toBe(false);
    expect(syncProgress([status(1, 'idle'), status(9, 'running')], [1]).done).toBe(true);
  });

  it('is done when every watched one is idle or failed, and lists the failures with their messages', () => {
    expect(syncProgress([status(1, 'idle'), status(2, 'failed', 'Token expired'), status(3, 'failed', ' ')], [1, 2, 3])).toEqual({
      done: true,
      finished: 3,
      total: 3,
      failures: [
        { connectionId: 2, platformName: 'Platform 2', message: 'Token expired' },
        { connectionId: 3, platformName: 'Platform 3', message: 'The sync failed.' },
      ],
    });
  });

  it('counts an attempt that failed and waits for its retry as over, with its reason; a Retry-After wait is not', () => {
    const retrying = { ...status(1, 'queued', 'TikTok: The platform could not answer (HTTP 500).'), attempts: 1, lastFailedAt: '2026-11-02T14:02:00.000Z', nextRunAt: '2026-11-02T14:07:00.000Z' };
    const throttled = status(2, 'queued', 'X is rate limiting us; the sync will resume later.');
    expect(syncProgress([retrying, throttled], [1, 2])).toEqual({
      done: false,
      finished: 1,
      total: 2,
      failures: [{ connectionId: 1, platformName: 'Platform 1', message: 'TikTok: The platform could not answer (HTTP 500).' }],
    });
  });

  it('counts a connection paused because the subscription ended as over, not as a failure: nothing runs until a new subscription', () => {
    expect(syncProgress([status(1, 'paused', 'Syncing is paused because your subscription ended.'), status(2, 'idle')], [1, 2])).toEqual({
      done: true,
      finished: 2,
      total: 2,
      failures: [],
    });
  });

  it('counts the finished connections for the button', () => {
    const progress = syncProgress([status(1, 'idle'), status(2, 'running'), status(3, 'failed'), status(9, 'idle')], [1, 2, 3]);
    expect(progress).toMatchObject({ done: false, finished: 2, total: 3 });
    expect(syncingLabel(progress)).toBe('Syncing... 2/3');
    expect(syncingLabel(undefined)).toBe('Syncing...');
    // One account: nothing to count.
    expect(syncingLabel(syncProgress([status(1, 'running')], [1]))).toBe('Syncing...');
  });
});

describe('mayPoll', () => {
  it('allows polling for a bounded time after the press', () => {
    expect(mayPoll(1_000, 1_000)).toBe(true);
    expect(mayPoll(1_000, 1_000 + SYNC_STATUS_POLL_LIMIT_MS - 1)).toBe(true);
    expect(mayPoll(1_000, 1_000 + SYNC_STATUS_POLL_LIMIT_MS)).toBe(false);
  });
});

const youtubeStatus = (overrides: Partial<ConnectionSyncStatus>): ConnectionSyncStatus => ({
  connectionId: 4,
  platformName: 'YouTube',
  status: 'idle',
  pausedReason: null,
  message: null,
  pause: null,
  lastSyncedAt: null,
  nextRunAt: null,
  lastFailedAt: null,
  attempts: 0,
  state: 'ok',
  missingParts: [],
  action: null,
  ...overrides,
});

describe('syncRunState', () => {
  it('is running until a status arrives and while the sync is queued or running', () => {
    expect(syncRunState(undefined, 4)).toEqual({ kind: 'running' });
    expect(syncRunState([youtubeStatus({ status: 'queued' })], 4)).toEqual({ kind: 'running' });
    expect(syncRunState([youtubeStatus({ status: 'running' }), youtubeStatus({ connectionId: 5, status: 'idle' })], 4)).toEqual({ kind: 'running' });
  });

  it('is done when the connection is idle again, or gone', () => {
    expect(syncRunState([youtubeStatus({ status: 'idle' })], 4)).toEqual({ kind: 'done' });
    expect(syncRunState([], 4)).toEqual({ kind: 'done' });
  });

  it('carries the reason of a failed sync', () => {
    expect(syncRunState([youtubeStatus({ status: 'failed', message: 'YouTube refused the token.' })], 4)).toEqual({
      kind: 'failed',
      message: 'YouTube refused the token.',
    });
    expect(syncRunState([youtubeStatus({ status: 'failed', message: ' ' })], 4)).toEqual({ kind: 'failed', message: 'The sync failed.' });
  });
});
