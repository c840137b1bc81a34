// The YouTube page's series over time: the channel's daily report day by day, and one video's views (YouTube's daily
// report for its first days, then the lifetime count as each sync read it). Pure: the repository reads the rows.
import type { VideoViewsHistory, YoutubeChannelDay } from '#contract/youtube.ts';
import { addDays, dayOf } from '../../lib/dates.ts';

const toNumber = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** One day of the channel's daily report as the repository reads it (youtube.repository.ts channelDays). */
export interface ChannelDayRow {
  date: string;
  views: number | null;
  watch_time_minutes: number | null;
  subscribers_gained: number | null;
  subscribers_lost: number | null;
  subscribers: number | null;
}

/** Every day of [startDate, through], in order; a day without a report row has nulls (not zeros). */
export function channelTrendDays(rows: readonly ChannelDayRow[], startDate: string, through: string): YoutubeChannelDay[] {
  const byDate = new Map(rows.map((row) => [row.date, row]));
  const days: YoutubeChannelDay[] = [];
  for (let date = startDate; date <= through; date = addDays(date, 1)) {
    const row = byDate.get(date);
    days.push({
      date,
      views: toNumber(row?.views),
      watchTimeMinutes: toNumber(row?.watch_time_minutes),
      subscribersGained: toNumber(row?.subscribers_gained),
      subscribersLost: toNumber(row?.subscribers_lost),
      subscribers: toNumber(row?.subscribers),
    });
  }
  return days;
}

/**
 * A video's views over time. `earlyViews` is YouTube's daily report from the publishing day (index 0); `reads` the
 * lifetime counts the syncs read, one per day at most: the days between the first and the last read are listed, a
 * day without a read null.
 */
export function videoViewsHistory(publishedAt: Date | null, earlyViews: unknown, reads: readonly { date: string; views: number }[]): VideoViewsHistory {
  const daily: VideoViewsHistory['daily'] = [];
  if (publishedAt && Array.isArray(earlyViews)) {
    const publishDay = dayOf(publishedAt);
    earlyViews.forEach((value, index) => {
      const views = typeof value === 'number' && Number.isFinite(value) ? value : null;
      daily.push({ date: addDays(publishDay, index), views });
    });
  }
  const totals: VideoViewsHistory['totals'] = [];
  const first = reads[0];
  const last = reads.at(-1);
  if (first && last) {
    const byDate = new Map(reads.map((read) => [read.date, Number(read.views)]));
    for (let date = first.date; date <= last.date; date = addDays(date, 1)) totals.push({ date, views: byDate.get(date) ?? null });
  }
  return { daily, totals };
}
