import { describe, expect, it } from 'vitest';
import { connectionsAwaitingCurrency } from './connection-currency';

const patreon = { platform: 'patreon' as const, manual: false, currency: null, lastSyncedAt: '2026-11-02T10:00:00.000Z' };

describe('connectionsAwaitingCurrency', () => {
  it('names a synced Patreon campaign without a currency, and nothing else', () => {
    expect(connectionsAwaitingCurrency([patreon])).toEqual([patreon]);
    // Read from Patreon or chosen: answered.
    expect(connectionsAwaitingCurrency([{ ...patreon, currency: 'EUR' }])).toEqual([]);
    // Before the first sync the sync may still read it: not asked yet.
    expect(connectionsAwaitingCurrency([{ ...patreon, lastSyncedAt: null }])).toEqual([]);
    expect(connectionsAwaitingCurrency([{ ...patreon, platform: 'youtube' as const }])).toEqual([]);
    expect(connectionsAwaitingCurrency([{ ...patreon, manual: true }])).toEqual([]);
    expect(connectionsAwaitingCurrency(undefined)).toEqual([]);
  });
});
