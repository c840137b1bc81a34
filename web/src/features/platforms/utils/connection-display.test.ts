import { describe, expect, it } from 'vitest';
import type { PlatformConnection } from '../../../lib/platform-connections';
import { isPlatformConnected, lastSyncedText } from './connection-display';

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

describe('isPlatformConnected', () => {
  const connection = { platformId: 1, isActive: true } as PlatformConnection;
  it('needs an active connection of that platform', () => {
    expect(isPlatformConnected(1, [connection])).toBe(true);
    expect(isPlatformConnected(2, [connection])).toBe(false);
    expect(isPlatformConnected(1, [{ ...connection, isActive: false }])).toBe(false);
    expect(isPlatformConnected(1, [])).toBe(false);
  });
});
