// The insight rules on constructed channels whose answer is known: each rule finds the planted effect, with the
// confidence the evidence deserves, and says nothing where there is no effect or too little data.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/seeded-random.ts';
import { dayBefore, earlyViewsFor, emptyInput, NOW, retentionCurve, testVideo, wobble } from '../../../test/youtube-insight-data.ts';
import { generateInsights, hasEnoughEvidence, type InsightVideo, performanceMeasure, segmentDrops, watchRatioAt } from './engine.ts';

const WEEKDAY_TUESDAY = 2;

function channel(count: number, shape: (video: InsightVideo, index: number) => Partial<InsightVideo> = () => ({})): InsightVideo[] {
  return Array.from({ length: count }, (_, index) => {
    const video = testVideo(index);
    return { ...video, ...shape(video, index) };
  });
}

const ofType = (insights: ReturnType<typeof generateInsights>, type: string) => insights.filter((insight) => insight.insightType === type);

describe('best publishing day', () => {
  // Tuesday uploads get 2.1× the first-week views of the others.
  const tuesdays = (video: InsightVideo, index: number) =>
    video.publishedAt!.getUTCDay() === WEEKDAY_TUESDAY ? { earlyViews: earlyViewsFor(Math.round(8000 * wobble(index) * 2.1)) } : {};

  it('finds the weekday that clearly outperforms, citing its numbers, with high confidence', () => {
    const videos = channel(214, tuesdays);
    const tuesdayCount = videos.filter((video) => video.publishedAt!.getUTCDay() === WEEKDAY_TUESDAY).length;
    const [insight, ...others] = ofType(generateInsights(emptyInput(videos)), 'best_publish_day');
    expect(others).toEqual([]);
    expect(insight).toBeDefined();
    expect(insight!.title).toBe('Best day to publish: Tuesday');
    expect(insight!.confidenceScore).toBeGreaterThanOrEqual(0.8);
    expect(insight!.facts).toMatchObject({ weekday: 'Tuesday', sampleSize: tuesdayCount, otherSampleSize: 214 - tuesdayCount, measure: '7-day views' });
    const { evidence } = insight!;
    expect(evidence).toMatchObject({
      groups: [
        { label: 'videos published on Tuesday (UTC)', n: tuesdayCount },
        { label: 'those published on other days', n: 214 - tuesdayCount },
      ],
      measure: '7-day views',
      effect: 'ratioOfGeometricMeans',
      noEffect: 1,
      comparisons: 7,
    });
    // The planted 2.1× lies inside the interval, which lies above 1.
    expect(evidence.ci95.low).toBeGreaterThan(1);
    expect(evidence.ci95.low).toBeLessThan(2.1);
    expect(evidence.ci95.high).toBeGreaterThan(2.1);
    expect(insight!.recommendation).toBe(
      `Videos published on Tuesday (UTC) got ${evidence.estimate.toFixed(1)}× the 7-day views of those published on other days, ` +
        `95 % CI ${evidence.ci95.low.toFixed(1)}–${evidence.ci95.high.toFixed(1)}×, n = ${tuesdayCount} vs ${214 - tuesdayCount}. ` +
        'Schedule your most important uploads on Tuesday.',
    );
  });

  it('says nothing when no weekday differs', () => {
    expect(ofType(generateInsights(emptyInput(channel(214))), 'best_publish_day')).toEqual([]);
  });

  it('gives less confidence to a smaller effect or fewer videos, and none when noise could explain it', () => {
    // Noisy channels (±90 % around the typical video): the evidence must come from the sample size.
    const noise = (index: number) => 1 + (0.9 * (((index * 53) % 17) - 8)) / 8;
    const noisy = (count: number, tuesdayFactor: number) =>
      channel(count, (video, index) => ({
        earlyViews: earlyViewsFor(Math.round(8000 * noise(index) * (video.publishedAt!.getUTCDay() === WEEKDAY_TUESDAY ? tuesdayFactor : 1))),
      }));
    const confidence = (count: number, factor: number) => ofType(generateInsights(emptyInput(noisy(count, factor))), 'best_publish_day')[0]?.confidenceScore;
    const strong = confidence(214, 2.1)!;
    const smallerEffect = confidence(214, 1.8)!;
    const fewerVideos = confidence(150, 2.1)!;
    expect(strong).toBeGreaterThanOrEqual(0.95);
    expect(smallerEffect).toBeLessThan(strong);
    expect(fewerVideos).toBeLessThan(strong);
    // 100 videos, ±90 % noise: the interval of a 2.1× effect reaches down to 1 once adjusted for seven weekdays.
    expect(confidence(100, 2.1)).toBeUndefined();
    expect(confidence(214, 1.1)).toBeUndefined();
  });

  it('uses views per day since publishing when first-week history is missing', () => {
    const videos = channel(214, (video, index) => {
      const ageDays = (NOW.getTime() - video.publishedAt!.getTime()) / 86_400_000;
      const perDay = 300 * wobble(index) * (video.publishedAt!.getUTCDay() === WEEKDAY_TUESDAY ? 2 : 1);
      return { earlyViews: null, views: Math.round(perDay * ageDays) };
    });
    expect(performanceMeasure(videos, NOW)?.key).toBe('viewsPerDay');
    const [insight] = ofType(generateInsights(emptyInput(videos)), 'best_publish_day');
    expect(insight?.facts).toMatchObject({ weekday: 'Tuesday', measure: 'views per day since publishing' });
    expect(insight!.recommendation).toMatch(/^Videos published on Tuesday \(UTC\) got 2\.0× the views per day since publishing of those published on other days, 95 % CI/);
  });
});

describe('small channels', () => {
  it('a channel of 3 videos gets no insight at all', () => {
    const videos = channel(3, (video, index) => ({ clickThroughRate: index === 0 ? 20 : 4, retention: retentionCurve(0.3, 0.3, index) }));
    expect(generateInsights(emptyInput(videos))).toEqual([]);
  });

  it('a channel with fewer than 5 videos on any weekday gets no publishing insight', () => {
    const videos = channel(20, (video, index) => ({ earlyViews: earlyViewsFor(index < 4 ? 50_000 : 8000) }));
    expect(ofType(generateInsights(emptyInput(videos)), 'best_publish_day')).toEqual([]);
  });
});

describe('best publishing time', () => {
  it('finds the four-hour window whose uploads outperform', () => {
    const videos = channel(120, (video, index) => {
      const hour = [2, 6, 10, 14, 18, 22][index % 6]!;
      const publishedAt = new Date(video.publishedAt!);
      publishedAt.setUTCHours(hour);
      return { publishedAt, earlyViews: earlyViewsFor(Math.round(8000 * wobble(index) * (hour === 18 ? 1.8 : 1))) };
    });
    const [insight] = ofType(generateInsights(emptyInput(videos)), 'best_publish_time');
    expect(insight?.facts.timeWindow).toBe('16:00–20:00 UTC');
    expect(insight!.confidenceScore).toBeGreaterThanOrEqual(0.8);
    expect(insight!.recommendation).toContain('between 16:00 and 20:00 UTC');
  });
});

describe('video length', () => {
  it('finds the duration bucket that outperforms', () => {
    const durations = [45, 180, 480, 900, 1800];
    const videos = channel(100, (_video, index) => {
      const durationSeconds = durations[index % 5]!;
      return { durationSeconds, earlyViews: earlyViewsFor(Math.round(8000 * wobble(index) * (durationSeconds === 900 ? 1.7 : 1))) };
    });
    const [insight] = ofType(generateInsights(emptyInput(videos)), 'video_length');
    expect(insight?.facts.length).toBe('10–20 minutes');
    expect(insight!.recommendation).toMatch(/^Videos of 10–20 minutes got 1\.7× the 7-day views of your other videos, 95 % CI 1\.\d–1\.\d×, n = 20 vs 80\./);
  });

  it('says nothing when lengths do not matter', () => {
    const durations = [45, 180, 480, 900, 1800];
    const videos = channel(100, (_video, index) => ({ durationSeconds: durations[index % 5]! }));
    expect(ofType(generateInsights(emptyInput(videos)), 'video_length')).toEqual([]);
  });
});

describe('a planted effect in noisy data (log-normal views, fixed seed)', () => {
  /** 14 videos of 10–20 minutes with `factor`× the 7-day views of 41 others spread over the other lengths. */
  function noisyLengths(factor: number, longCount = 14, seed = 1) {
    const random = seededRandom(seed);
    const others = [45, 180, 480, 1800];
    return channel(longCount + 41, (_video, index) => {
      const long = index < longCount;
      const firstWeek = Math.round(Math.exp(random.normal(Math.log(8000 * (long ? factor : 1)), 0.4)));
      return { durationSeconds: long ? 900 : others[index % 4]!, earlyViews: earlyViewsFor(firstWeek) };
    });
  }

  it('finds a planted 1.6× with a 95 % interval covering 1.6, and words exactly its evidence', () => {
    const [insight] = ofType(generateInsights(emptyInput(noisyLengths(1.6))), 'video_length');
    expect(insight).toBeDefined();
    const { evidence } = insight!;
    expect(evidence.groups).toEqual([
      { label: 'videos of 10–20 minutes', n: 14 },
      { label: 'your other videos', n: 41 },
    ]);
    expect(evidence.ci95.low).toBeGreaterThan(1);
    expect(evidence.ci95.low).toBeLessThan(1.6);
    expect(evidence.ci95.high).toBeGreaterThan(1.6);
    const one = (value: number) => value.toFixed(1);
    expect(insight!.recommendation).toBe(
      `Videos of 10–20 minutes got ${one(evidence.estimate)}× the 7-day views of your other videos, 95 % CI ${one(evidence.ci95.low)}–${one(evidence.ci95.high)}×, n = 14 vs 41. ` +
        'Favour this length when you plan new videos.',
    );
  });

  it('says nothing when there is no effect, but in at most 5 % of channels (the family-wise error rate)', () => {
    const claims = Array.from({ length: 200 }, (_, seed) => ofType(generateInsights(emptyInput(noisyLengths(1, 14, seed + 1))), 'video_length').length);
    expect(claims[0]).toBe(0);
    expect(claims.reduce((sum, count) => sum + count, 0) / claims.length).toBeLessThanOrEqual(0.05);
  });

  it('says nothing about a group of 4 videos, however large their effect', () => {
    expect(ofType(generateInsights(emptyInput(noisyLengths(3, 4))), 'video_length')).toEqual([]);
  });

  it('drops an insight whose interval reaches no effect, or whose group is below 5', () => {
    const [insight] = ofType(generateInsights(emptyInput(noisyLengths(1.6))), 'video_length');
    expect(hasEnoughEvidence(insight!)).toBe(true);
    expect(hasEnoughEvidence({ evidence: { ...insight!.evidence, ci95: { low: 0.98, high: 2.1 } } })).toBe(false);
    expect(hasEnoughEvidence({ evidence: { ...insight!.evidence, groups: [{ label: 'a', n: 4 }, { label: 'b', n: 41 }] } })).toBe(false);
  });
});

describe('one video against the others', () => {
  it('is never an insight, however far it stands out: a group of one says nothing about the channel', () => {
    const videos = channel(40, (_video, index) => (index === 7 ? { clickThroughRate: 12.5, averageViewPercentage: 78, title: 'The big one' } : {}));
    const insights = generateInsights(emptyInput(videos));
    expect(insights.filter((insight) => insight.videoId === 'v0000000007')).toEqual([]);
    expect(insights.every((insight) => insight.evidence.groups.every((group) => group.n >= 5))).toBe(true);
  });
});

describe('retention drop-off', () => {
  it('interpolates curves on a common grid', () => {
    const curve = [
      { timeRatio: 0.1, watchRatio: 1, relativePerformance: null },
      { timeRatio: 0.3, watchRatio: 0.6, relativePerformance: null },
    ];
    expect(watchRatioAt(curve, 0)).toBe(1);
    expect(watchRatioAt(curve, 0.2)).toBeCloseTo(0.8);
    expect(watchRatioAt(curve, 0.9)).toBe(0.6);
    expect(segmentDrops(curve)).toHaveLength(19);
  });

  it('finds where viewers leave across the curves', () => {
    const videos = channel(12, (_video, index) => ({ retention: retentionCurve(0.3, 0.15, index), durationSeconds: 600 }));
    const [insight] = ofType(generateInsights(emptyInput(videos)), 'retention_dropoff');
    expect(insight?.facts).toMatchObject({ segmentStartPercent: 30, segmentEndPercent: 35, sampleSize: 12 });
    expect(insight!.recommendation).toContain('about 3:00–3:30 into a typical 10:00 video');
    // The planted extra drop is 15 points in the stretch (the gentle slope costs ~2 points in every stretch).
    expect(insight!.evidence).toMatchObject({ effect: 'meanDifference', noEffect: 0, comparisons: 18, groups: [{ n: 12 }, { n: 12 }] });
    expect(insight!.evidence.estimate).toBeCloseTo(15, -0.5);
    expect(insight!.evidence.ci95.low).toBeGreaterThan(10);
    expect(insight!.recommendation).toMatch(/loses 15\.\d points more of the audience than an average other 5 % stretch after the opening, 95 % CI 1\d\.\d–1\d\.\d points, n = 12 vs 12\./);
    expect(insight!.confidenceScore).toBe(0.99);
  });

  it('leaves the opening 5 % out: a drop there is nearly every video’s, context rather than an insight', () => {
    const opening = channel(12, (_video, index) => ({ retention: retentionCurve(0, 0.3, index), durationSeconds: 600 }));
    expect(ofType(generateInsights(emptyInput(opening)), 'retention_dropoff')).toEqual([]);
  });

  it('says nothing for smooth curves or too few of them', () => {
    expect(ofType(generateInsights(emptyInput(channel(12, (_v, index) => ({ retention: retentionCurve(0.3, 0, index) })))), 'retention_dropoff')).toEqual([]);
    expect(ofType(generateInsights(emptyInput(channel(4, (_v, index) => ({ retention: retentionCurve(0.3, 0.2, index) })))), 'retention_dropoff')).toEqual([]);
  });
});

describe('traffic sources', () => {
  /** 70 days of channel traffic ending two days ago; `perDay(source, daysAgo)` gives the views. */
  function traffic(perDay: (source: string, daysAgo: number) => number) {
    return ['YT_SEARCH', 'RELATED_VIDEO', 'SUBSCRIBER', 'EXT_URL'].flatMap((sourceType) =>
      Array.from({ length: 70 }, (_, offset) => ({ date: dayBefore(offset + 2), sourceType, views: Math.round(perDay(sourceType, offset + 2)) })),
    );
  }
  const steady = (source: string, daysAgo: number) => ({ YT_SEARCH: 400, RELATED_VIDEO: 600, SUBSCRIBER: 300, EXT_URL: 80 })[source]! * wobble(daysAgo);

  it('finds the source that grew and the one that shrank over the last 28 days', () => {
    const channelTraffic = traffic((source, daysAgo) => {
      const recent = daysAgo < 30;
      if (source === 'YT_SEARCH') return steady(source, daysAgo) * (recent ? 1.6 : 1);
      if (source === 'RELATED_VIDEO') return steady(source, daysAgo) * (recent ? 0.6 : 1);
      return steady(source, daysAgo);
    });
    const insights = generateInsights(emptyInput([], { channelTraffic }));
    const [growth] = ofType(insights, 'traffic_source_growth');
    const [decline] = ofType(insights, 'traffic_source_decline');
    expect(growth?.facts).toMatchObject({ sourceType: 'YT_SEARCH', source: 'YouTube search', periodEnd: dayBefore(2) });
    expect(Number(growth!.facts.changePercent)).toBeCloseTo(60, -1);
    expect(growth!.recommendation).toMatch(/^The last 28 days brought 1\.6× the daily views from YouTube search of the 28 days before, 95 % CI 1\.\d–1\.\d×, n = 28 vs 28\./);
    expect(growth!.evidence.ci95.low).toBeLessThan(1.6);
    expect(growth!.evidence.ci95.high).toBeGreaterThan(1.6);
    expect(decline!.evidence.ci95.high).toBeLessThan(1);
    expect(growth!.confidenceScore).toBeGreaterThanOrEqual(0.8);
    expect(decline?.facts).toMatchObject({ sourceType: 'RELATED_VIDEO', source: 'Suggested videos' });
  });

  it('says nothing when sources are steady or the history is shorter than two windows', () => {
    expect(generateInsights(emptyInput([], { channelTraffic: traffic(steady) }))).toEqual([]);
    const short = traffic((source, daysAgo) => steady(source, daysAgo) * (daysAgo < 30 && source === 'YT_SEARCH' ? 2 : 1)).filter((row) => row.date >= dayBefore(40));
    expect(generateInsights(emptyInput([], { channelTraffic: short }))).toEqual([]);
  });
});

describe('RPM trend', () => {
  const daily = Array.from({ length: 70 }, (_, offset) => {
    const daysAgo = offset + 3;
    const views = Math.round(10_000 * wobble(daysAgo));
    const rpm = (daysAgo < 31 ? 3.4 : 2.6) * wobble(daysAgo + 4);
    return { date: dayBefore(daysAgo), views, revenue: Math.round(views * rpm) / 1000 };
  });

  it('reports a rising RPM with its numbers', () => {
    const [insight] = ofType(generateInsights(emptyInput([], { daily })), 'rpm_trend');
    expect(insight?.title).toBe('Your RPM is rising');
    expect(Number(insight!.facts.changePercent)).toBeGreaterThan(20);
    expect(insight!.recommendation).toMatch(/^The last 28 days had 1\.3× the average daily RPM of the 28 days before, 95 % CI 1\.\d–1\.\d×, n = 28 vs 28\. Your RPM averaged \$\d\.\d\d per 1,000 views a day/);
  });

  it('gives a channel without revenue access no RPM insight', () => {
    expect(ofType(generateInsights(emptyInput([], { daily, revenueAccess: 'missingScope' })), 'rpm_trend')).toEqual([]);
    expect(ofType(generateInsights(emptyInput([], { daily: daily.map((row) => ({ ...row, revenue: null })) })), 'rpm_trend')).toEqual([]);
  });

  it('says nothing when RPM is flat', () => {
    const flat = daily.map((row, index) => ({ ...row, revenue: Math.round(row.views! * 3 * wobble(index)) / 1000 }));
    expect(ofType(generateInsights(emptyInput([], { daily: flat })), 'rpm_trend')).toEqual([]);
  });
});

describe('the whole run', () => {
  it('is deterministic and sorted by confidence', () => {
    const videos = channel(214, (video, index) => ({
      earlyViews: earlyViewsFor(Math.round(8000 * wobble(index) * (video.publishedAt!.getUTCDay() === WEEKDAY_TUESDAY ? 2 : 1))),
      retention: index < 20 ? retentionCurve(0.5, 0.12, index) : [],
    }));
    const first = generateInsights(emptyInput(videos));
    expect(generateInsights(emptyInput(videos))).toEqual(first);
    expect(first.map((insight) => insight.insightType)).toEqual(expect.arrayContaining(['best_publish_day', 'retention_dropoff']));
    const scores = first.map((insight) => insight.confidenceScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const insight of first) {
      expect(insight.confidenceScore).toBeGreaterThanOrEqual(0);
      expect(insight.confidenceScore).toBeLessThanOrEqual(0.99);
      // Every recommendation cites numbers.
      expect(insight.recommendation).toMatch(/\d/);
    }
  });
});
