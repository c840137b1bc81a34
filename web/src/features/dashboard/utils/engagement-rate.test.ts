import { describe, expect, it } from 'vitest';
import { engagementRateText } from './engagement-rate';

describe('engagementRateText', () => {
  it('is null (a dash) with no views and no connection ever synced', () => {
    expect(engagementRateText({ totalViews: 0, totalImpressions: 0, averageEngagementRate: 0 }, [])).toBeNull();
    expect(engagementRateText({ totalViews: 0, totalImpressions: 0, averageEngagementRate: 0 }, [{ lastSyncedAt: null }])).toBeNull();
  });

  it('shows the rate with one decimal once there are views or a synced connection', () => {
    expect(engagementRateText({ totalViews: 10, totalImpressions: 0, averageEngagementRate: 4.56 }, [])).toBe('4.6%');
    expect(engagementRateText({ totalViews: 0, totalImpressions: 0, averageEngagementRate: 0 }, [{ lastSyncedAt: '2026-11-20T10:00:00.000Z' }])).toBe('0.0%');
  });
});
