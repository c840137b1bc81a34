import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionSyncStatus } from '#contract/analytics.ts';
import type { PlatformConnection } from '../../../lib/platform-connections';
import { setDisplayTimeZone } from '../../../lib/format';
import { accountName, connectedAccountNames, formatTimeOfDay, lastSyncedText, reconnectDeadlineText, syncTroubleText, trackedHistoryText } from './connection-display';

describe('lastSyncedText', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  it('says when nothing has been synced', () => {
    expect(lastSyncedText(null, now)).toBe('Not synced yet');
    expect(lastSyncedText('garbage', now)).toBe('Not synced yet');
  });

  it('is relative within a week', () => {
    expect(lastSyncedText('2026-03-10T11:59:30Z', now)).toBe('Last synced just now');
    expect(lastSyncedText('2026-03-10T12:00:05Z', now)).toBe('Last synced just now');
    expect(lastSyncedText('2026-03-10T11:55:00Z', now)).toBe('Last synced 5 minutes ago');
    expect(lastSyncedText('2026-03-10T09:00:00Z', now)).toBe('Last synced 3 hours ago');
    expect(lastSyncedText('2026-03-09T10:00:00Z', now)).toBe('Last synced yesterday');
    expect(lastSyncedText('2026-03-06T12:00:00Z', now)).toBe('Last synced 4 days ago');
  });

  it('shows the date after a week', () => {
    expect(lastSyncedText('2026-02-01T12:00:00Z', now)).toBe('Last synced Feb 1, 2026');
  });
});

describe('connectedAccountNames', () => {
  const connection = { platformId: 1, isActive: true, platformUsername: 'maya', platformUserId: 'UC1', displayName: 'Maya Lopez' } as PlatformConnection;
  it('names the active accounts of that platform, by name and handle', () => {
    expect(connectedAccountNames(1, [connection, { ...connection, platformUsername: null, displayName: null, platformUserId: 'UC2' }])).toEqual(['Maya Lopez (@maya)', 'UC2']);
    expect(connectedAccountNames(2, [connection])).toEqual([]);
    expect(connectedAccountNames(1, [{ ...connection, isActive: false }])).toEqual([]);
    expect(connectedAccountNames(1, [])).toEqual([]);
  });

  it('does not repeat a name that is the handle', () => {
    expect(accountName({ ...connection, displayName: '@maya' })).toBe('@maya');
  });
});

describe('syncTroubleText', () => {
  const now = new Date('2026-11-02T14:30:00Z');
  const healthy = { syncStatus: 'idle', needsReconnect: false } as const;
  const status = (overrides: Partial<ConnectionSyncStatus>): ConnectionSyncStatus => ({
    connectionId: 4,
    platformName: 'TikTok',
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
  const text = (overrides: Partial<ConnectionSyncStatus>, connection: Pick<PlatformConnection, 'syncStatus' | 'needsReconnect'> = healthy) =>
    syncTroubleText(status(overrides), connection, now, 'UTC');

  it('a partial sync names what is missing, when it is read again, and why', () => {
    const missing = ['the posts list: The platform could not answer (HTTP 503)'];
    expect(text({ state: 'partial', missingParts: missing, nextRunAt: '2026-11-02T14:45:00Z' })).toBe('Partial: the posts list is missing, retrying at 14:45. The platform could not answer (HTTP 503).');
    expect(text({ state: 'partial', missingParts: [...missing, 'the profile and follower count: The platform could not answer (HTTP 500)'], nextRunAt: '2026-11-02T14:45:00Z' })).toBe(
      'Partial: the posts list and 1 more part are missing, retrying at 14:45. The platform could not answer (HTTP 503).',
    );
    expect(text({ state: 'ok', missingParts: [] })).toBeNull();
  });

  it('says nothing while all is well, or while a platform only asked us to wait', () => {
    expect(text({})).toBeNull();
    expect(text({ status: 'queued', message: 'X is rate limiting us; the sync will resume later.', nextRunAt: '2026-11-02T15:00:00Z' })).toBeNull();
    expect(syncTroubleText(undefined, healthy, now)).toBeNull();
  });

  it('says when a failed attempt happened, why, and when the next one is due', () => {
    const failing = { message: 'TikTok: The platform could not answer (HTTP 500, internal_error).', attempts: 2, lastFailedAt: '2026-11-02T14:02:00Z' };
    // The row names the platform: the reason does not repeat it.
    expect(text({ ...failing, status: 'queued', nextRunAt: '2026-11-02T16:02:00Z' })).toBe(
      'Last failed 14:02: The platform could not answer (HTTP 500, internal_error). Next try at 16:02.',
    );
    expect(text({ ...failing, status: 'running' })).toBe('Last failed 14:02: The platform could not answer (HTTP 500, internal_error). Trying again now.');
    // A reason without a full stop gets one; another day's times carry their date.
    expect(text({ status: 'queued', message: 'Patreon timed out', attempts: 5, lastFailedAt: '2026-11-02T14:02:00Z', nextRunAt: '2026-11-03T00:40:00Z' })).toBe(
      'Last failed 14:02: Patreon timed out. Next try at Nov 3, 00:40.',
    );
  });

  it('says a stopped sync waits for the user, and how to start it again', () => {
    expect(text({ status: 'failed', message: 'Instagram sent a response we could not read (HTTP 200). Nothing was stored.', attempts: 1, lastFailedAt: '2026-11-02T14:02:00Z' })).toBe(
      'Stopped: Instagram sent a response we could not read (HTTP 200). Nothing was stored. Press Sync to try again.',
    );
    // A refused connection is fixed by reconnecting (the row's Reconnect button), not by Sync.
    expect(text({ status: 'failed', message: 'YouTube no longer accepts this connection. Connect it again.', attempts: 1 }, { syncStatus: 'failed', needsReconnect: true })).toBe(
      'Stopped: YouTube no longer accepts this connection. Connect it again.',
    );
    // What the creator must do has a note of its own (with Retry): the trouble line does not say it twice.
    const action = 'TikTok did not give us permission to read this: connect TikTok again and leave every permission ticked, then press Retry.';
    expect(text({ status: 'failed', message: action, attempts: 1, action: { kind: 'needs_creator', message: action } })).toBeNull();
    // Without the status list, the connection's own state still tells.
    expect(syncTroubleText(undefined, { syncStatus: 'failed', needsReconnect: false }, now)).toBe('Sync stopped. Press Sync to try again.');
  });

  it("says in words that a platform's figures pause while the operator's budget is spent", () => {
    const budget = 'X figures pause until Jan 1 while we stay within our X budget.';
    const pause = { reason: 'platform_budget', until: '2027-01-01T00:00:00.000Z', message: budget } as const;
    expect(text({ platformName: 'X', message: budget, pause, nextRunAt: pause.until })).toBe(budget);
    // An earlier failure does not hide the pause, nor the pause a sync that stopped for its own reason.
    expect(text({ platformName: 'X', message: budget, pause, attempts: 2, lastFailedAt: '2026-11-02T14:02:00Z' })).toBe(budget);
    expect(text({ platformName: 'X', status: 'failed', message: 'X: The platform refused the request (HTTP 403).', pause, attempts: 1 })).toBe(
      `Stopped: The platform refused the request (HTTP 403). Press Sync to try again. ${budget}`,
    );
  });
});

describe('formatTimeOfDay', () => {
  it('shows the time alone on the same day, with the date on another', () => {
    const now = new Date('2026-11-02T23:30:00Z');
    expect(formatTimeOfDay('2026-11-02T09:05:00Z', now, 'UTC')).toBe('09:05');
    expect(formatTimeOfDay('2026-11-03T01:15:00Z', now, 'UTC')).toBe('Nov 3, 01:15');
    // The day is the user's: in Paris it is already Nov 3.
    expect(formatTimeOfDay('2026-11-03T01:15:00Z', now, 'Europe/Paris')).toBe('02:15');
  });
});

describe('reconnectDeadlineText', () => {
  beforeAll(() => setDisplayTimeZone('UTC'));
  afterAll(() => setDisplayTimeZone(null));
  const connection = { needsReconnect: true, dataDeletedOn: '2027-01-06T10:00:00.000Z', platformName: 'YouTube' };
  it('dates the deletion of a connection that needs reconnecting', () => {
    expect(reconnectDeadlineText(connection)).toBe('Reconnect by Jan 6, 2027: YouTube no longer lets us read this account, so on that day we delete what we stored for it.');
  });
  it('says nothing while the grant works', () => {
    expect(reconnectDeadlineText({ ...connection, needsReconnect: false, dataDeletedOn: null })).toBeNull();
  });
});

describe('trackedHistoryText', () => {
  it("says a tracked YouTube channel keeps 30 days (YouTube's policy), and nothing for other connections", () => {
    expect(trackedHistoryText({ manual: true, platform: 'youtube' })).toBe("Subscriber history: last 30 days (YouTube's policy)");
    expect(trackedHistoryText({ manual: false, platform: 'youtube' })).toBeNull();
    expect(trackedHistoryText({ manual: true, platform: 'twitter' })).toBeNull();
  });
});
