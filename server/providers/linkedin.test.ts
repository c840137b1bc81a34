// LinkedIn's parsers on the answers LinkedIn's pages and published captures show (corrections rows 2, 3, 6), and the
// follower totals under both readings of q=dateRange's daily values.
import { describe, expect, it } from 'vitest';
import { analyticsDayBody, followerDayBody, followersNowBody, meBody, pictureUrl } from './linkedin-api.ts';
import { followerTotals } from './linkedin.sync.ts';

describe('LinkedIn answers as documented', () => {
  it('reads the Basic Profile (/v2/me) and the decorated picture’s largest URL', () => {
    // The captured answer's fields (corrections §1.2), with the profilePicture(displayImage~:playableStreams) decoration.
    const answer = {
      id: 'yrZCpj2Z12',
      localizedFirstName: 'Bob',
      localizedLastName: 'Smith',
      localizedHeadline: 'API Enthusiast at LinkedIn',
      vanityName: 'bsmith',
      firstName: { localized: { en_US: 'Bob' }, preferredLocale: { country: 'US', language: 'en' } },
      lastName: { localized: { en_US: 'Smith' }, preferredLocale: { country: 'US', language: 'en' } },
      profilePicture: {
        displayImage: 'urn:li:digitalmediaAsset:C4D00AAAAbBCDEFGhiJ',
        'displayImage~': {
          paging: { count: 10, start: 0, links: [] },
          elements: [
            { data: { 'com.linkedin.digitalmedia.mediaartifact.StillImage': { storageSize: { width: 100, height: 100 } } }, identifiers: [{ identifier: 'https://media.licdn.com/dms/image/100', identifierType: 'EXTERNAL_URL' }] },
            { data: { 'com.linkedin.digitalmedia.mediaartifact.StillImage': { storageSize: { width: 800, height: 800 } } }, identifiers: [{ identifier: 'https://media.licdn.com/dms/image/800', identifierType: 'EXTERNAL_URL' }] },
            { data: { 'com.linkedin.digitalmedia.mediaartifact.StillImage': { storageSize: { width: 400, height: 400 } } }, identifiers: [{ identifier: 'https://media.licdn.com/dms/image/400', identifierType: 'EXTERNAL_URL' }] },
          ],
        },
      },
    };
    const parsed = meBody.parse(answer);
    expect(parsed).toMatchObject({ id: 'yrZCpj2Z12', localizedFirstName: 'Bob', localizedLastName: 'Smith', vanityName: 'bsmith' });
    expect(pictureUrl(parsed)).toBe('https://media.licdn.com/dms/image/800');
    // Without the decoration only the media URN comes back: no URL.
    expect(pictureUrl(meBody.parse({ id: 'x', profilePicture: { displayImage: 'urn:li:digitalmediaAsset:C4D' } }))).toBeNull();
  });

  it('reads memberFollowersCount q=me and q=dateRange as the follower-statistics page and the capture show them', () => {
    expect(followersNowBody.parse({ elements: [{ memberFollowersCount: 100 }], paging: { count: 10, start: 0, links: [] } }).elements[0]!.memberFollowersCount).toBe(100);
    const history = followerDayBody.parse({
      paging: { start: 0, count: 10, links: [] },
      elements: [
        { dateRange: { start: { month: 5, day: 4, year: 2024 }, end: { month: 5, day: 5, year: 2024 } }, memberFollowersCount: 0 },
        { dateRange: { start: { month: 5, day: 5, year: 2024 }, end: { month: 5, day: 6, year: 2024 } }, memberFollowersCount: 0 },
      ],
    });
    expect(history.elements).toHaveLength(2);
  });

  it('reads memberCreatorPostAnalytics DAILY elements (nested metricType, or a plain string from 202605)', () => {
    const parsed = analyticsDayBody.parse({
      paging: { start: 0, count: 10, links: [] },
      elements: [
        { count: 1234, metricType: { 'com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1': 'IMPRESSION' }, dateRange: { start: { year: 2026, month: 5, day: 1 }, end: { year: 2026, month: 5, day: 2 } } },
        { count: 5, metricType: 'REACTION', dateRange: { start: { year: 2026, month: 5, day: 2 }, end: { year: 2026, month: 5, day: 3 } } },
        { count: 9, metricType: 'IMPRESSION', dateRange: {} },
      ],
    });
    expect(parsed.elements.map((element) => element.count)).toEqual([1234, 5, 9]);
  });
});

describe('followerTotals', () => {
  const day = (iso: string, value: number) => {
    const [year, month, dayOfMonth] = iso.split('-').map(Number) as [number, number, number];
    return { dateRange: { start: { year, month, day: dayOfMonth } }, memberFollowersCount: value };
  };
  const rows = (pairs: [string, number][]) => pairs.map(([date, value]) => ({ date, metricType: 'followers', value }));

  it('daily gains: each day’s total back from today’s count (which also stands for yesterday), as far as the days run', () => {
    const days = [day('2026-04-27', 9), day('2026-04-29', 4), day('2026-04-30', 1), day('2026-05-01', 2), day('2026-05-02', 3), day('2026-05-03', 5)];
    expect(followerTotals(961, '2026-05-04', days, 'daily_gain')).toEqual(
      rows([
        ['2026-05-03', 961],
        ['2026-05-02', 956],
        ['2026-05-01', 953],
        ['2026-04-30', 951],
        ['2026-04-29', 950],
      ]),
    );
    // The capture's zeros: the total stands still.
    expect(followerTotals(961, '2026-05-04', [day('2026-05-02', 0), day('2026-05-03', 0)], 'daily_gain')).toEqual(rows([['2026-05-03', 961], ['2026-05-02', 961]]));
  });

  it('running totals: each day is its own value, today excluded', () => {
    expect(followerTotals(961, '2026-05-04', [day('2026-05-02', 955), day('2026-05-03', 960), day('2026-05-04', 961)], 'running_total')).toEqual(rows([['2026-05-02', 955], ['2026-05-03', 960]]));
  });

  it('values that would make a total negative cannot be gains: null', () => {
    expect(followerTotals(961, '2026-05-04', [day('2026-05-01', 950), day('2026-05-02', 955), day('2026-05-03', 960)], 'daily_gain')).toBeNull();
  });
});
