// "What changed" (issue 17; docs/decisions/021-what-changed.md): the change of views or revenue between two periods,
// split five ways into parts that add up exactly to the change (by platform; YouTube's views by traffic source; new
// uploads against the back catalogue; the top 10 items; YouTube revenue as views × RPM by LMDI), each part with its
// share and its place in the creator's own window-to-window variation. Sum-type parts are plain differences; every
// split that cannot cover the whole change from stored rows carries a "not attributed" part, so each still sums.
import { formatMoney } from '#contract/money.ts';
import { revenueCurrencyNote } from '#contract/analytics.ts';
import { daysInPeriod, shiftDay } from '#contract/comparison.ts';
import { platformDisplayName } from '#contract/platforms.ts';
import { dayInWords, wordList } from '#contract/words.ts';
import {
  type PartVariation,
  type SplitKind,
  type WhatChangedMetric,
  type WhatChangedPart,
  type WhatChangedQuery,
  type WhatChangedResponse,
  type WhatChangedSplit,
  whatChangedResponse,
} from '#contract/what-changed.ts';
import { AppError } from '../../lib/app-error.ts';
import { funnelSplit, roundToTotal, variationOf } from './what-changed-math.ts';
import { add, type Data, dayDiff, type DayValues, latestOnOrBefore, type Measured, measure, UNATTRIBUTED, type Window, type Windows } from './what-changed-measure.ts';
import type { ScopeItem, WhatChangedRepository } from './what-changed.repository.ts';

/** At most this many past windows, and none starting more than a year before the period. */
const HISTORY_WINDOWS = 26;
const HISTORY_DAYS = 365;
const TOP_ITEMS = 10;
const OTHER_ITEMS = '_other';
/** Where the traffic-source split comes from, in a creator's words. */
const CHANNEL_TRAFFIC_BASIS = "YouTube's report of the channel's views per day by where viewers found them (search, suggested videos, external sites...).";


/** The raw parts of one split between two measured periods (before rounding). */
interface RawPart {
  key: string;
  label: string;
  current: number | null;
  previous: number | null;
  change: number;
  detail?: string | null;
  url?: string | null;
}

export function createWhatChangedService({ repository, trafficSourceName }: { repository: WhatChangedRepository; trafficSourceName: (sourceType: string) => string }) {
  async function whatChanged(userId: number, query: WhatChangedQuery): Promise<WhatChangedResponse> {
    const { startDate, endDate, compareStartDate, compareEndDate, metric } = query;
    if (startDate > endDate) throw new AppError('bad_request', 'startDate must not be after endDate');
    if (compareStartDate > compareEndDate) throw new AppError('bad_request', 'compareStartDate must not be after compareEndDate');
    if (daysInPeriod(startDate, endDate) > 3 * 366 + 1 || daysInPeriod(compareStartDate, compareEndDate) > 3 * 366 + 1) {
      throw new AppError('bad_request', 'A period may span at most three years');
    }
    if (!(compareEndDate < startDate || compareStartDate > endDate)) throw new AppError('bad_request', 'The two periods must not overlap');

    const length = daysInPeriod(startDate, endDate);
    const windowCount = Math.min(HISTORY_WINDOWS, Math.floor(HISTORY_DAYS / length));
    const historyStart = shiftDay(startDate, -windowCount * length);
    const from = [compareStartDate, historyStart].sort()[0]!;
    const to = [endDate, compareEndDate].sort()[1]!;

    const connections = await repository.connections({ userId, platform: query.platform });
    const ids = connections.map((connection) => connection.id);
    const [dailyRows, trafficRows, items] = await Promise.all([
      repository.daily(ids, from, to),
      metric === 'views' ? repository.traffic(connections.filter((c) => c.platform === 'youtube').map((c) => c.id), from, to) : Promise.resolve([]),
      metric === 'views' ? repository.items(ids) : Promise.resolve([]),
    ]);

    // Each connection's windows, over the days both periods hold (issue 24, coverage): a connection whose figures end
    // before the current period does (YouTube's 2–3 day lag) is compared without the days missing at the end, and one
    // whose history begins after the comparison period starts (TikTok's and X's daily figures begin with their first
    // sync; Instagram's insights, read two years back on the first sync, only for an account younger than that)
    // without the days missing at the start, both periods cut alike (as the cards, decision 013). A connection with no
    // day both periods hold is left out of the change, and the notes say so: a history start is not growth.
    const firstDayOf = new Map<number, string>();
    const lastDayOf = new Map<number, string>();
    const usd = new Set(connections.filter((connection) => connection.currency === 'USD').map((connection) => connection.id));
    for (const row of dailyRows) {
      // The rows that count: views, or revenue and the pledges of campaigns in US dollars (others are never added).
      const counts = metric === 'views' ? row.metric_type === 'views' : row.metric_type === 'revenue' || (row.metric_type === 'monthly_pledges' && usd.has(row.connection_id));
      if (!counts) continue;
      const first = firstDayOf.get(row.connection_id);
      if (first === undefined || row.date < first) firstDayOf.set(row.connection_id, row.date);
      const last = lastDayOf.get(row.connection_id);
      // Days of figures (views, revenue) end where the platform's reading does; pledges are a level read as of a day,
      // held until the next reading, so they never end a period early.
      const flow = row.metric_type !== 'monthly_pledges';
      if (flow && row.date <= endDate && (last === undefined || row.date > last)) lastDayOf.set(row.connection_id, row.date);
    }
    const current: Windows = new Map();
    const previous: Windows = new Map();
    const cutNotes: string[] = [];
    const leftOutNames: string[] = [];
    /** Whether some connection has figures on days both periods hold; else there is nothing to compare. */
    let comparable = false;
    for (const connection of connections) {
      const name = `${platformDisplayName(connection.platform)}${connection.display_name ? ` (${connection.display_name})` : ''}`;
      // Where a connection's figures end: YouTube's report says so (complete_through); every other platform's last
      // day is the newest it has given, so a day not in yet (Instagram's today, a sync that has not run) is left out
      // of both periods rather than read as a drop.
      const through = [connection.complete_through, lastDayOf.get(connection.id) ?? null].filter((day): day is string => day !== null).sort()[0] ?? null;
      const endCut = through !== null && through < endDate ? dayDiff(through, endDate) : 0;
      const first = firstDayOf.get(connection.id);
      const startCut = first !== undefined && first > compareStartDate ? dayDiff(compareStartDate, first) : 0;
      const cutWindow = (start: string, end: string) => {
        const window = { start: shiftDay(start, startCut), end: shiftDay(end, -endCut) };
        return window.start <= window.end ? window : null;
      };
      const previousWindow = cutWindow(compareStartDate, compareEndDate);
      const currentWindow = previousWindow ? cutWindow(startDate, endDate) : null;
      current.set(connection.id, currentWindow);
      previous.set(connection.id, currentWindow ? previousWindow : null);
      if (first === undefined) continue;
      if (currentWindow && previousWindow) comparable = true;
      if (!currentWindow || !previousWindow) {
        leftOutNames.push(name);
      } else if (startCut > 0) {
        const days = daysInPeriod(previousWindow.start, previousWindow.end);
        // The days in words, as everywhere on screen (they read '2026-10-30'), and the span in the cards' words.
        cutNotes.push(`${name}: history begins on ${dayInWords(first)}, so the change compares the ${days === 1 ? 'day' : `${days} days`} both periods hold.`);
      } else if (endCut > 0 && through !== null && through >= startDate) {
        cutNotes.push(`${name}: figures end on ${dayInWords(through)}, so both periods are compared without their last ${endCut === 1 ? 'day' : `${endCut} days`}.`);
      }
    }
    if (leftOutNames.length > 0) {
      cutNotes.push(`Left out of the change: ${wordList(leftOutNames)}, with no figures on the days of the comparison period (a history that begins is not growth).`);
    }
    const history: Window[] = [];
    // Pledges are read as of a day, so rows before the range count; the first day of any figure bounds the history.
    const firstDay = dailyRows.reduce<string | null>((first, row) => (first === null || row.date < first ? row.date : first), null);
    for (let k = 1; k <= windowCount; k += 1) {
      const window = { start: shiftDay(startDate, -k * length), end: shiftDay(startDate, -(k - 1) * length - 1) };
      if (firstDay === null || window.start < firstDay) break;
      history.push(window);
    }
    const sameWindow = (window: Window): Windows => new Map(connections.map((connection) => [connection.id, window]));

    const counterDays = new Set<string>();
    if (metric === 'views') {
      for (const windows of [current, previous, ...history.map(sameWindow)]) {
        for (const window of windows.values()) {
          if (!window) continue;
          counterDays.add(window.end);
          counterDays.add(shiftDay(window.start, -1));
        }
      }
    }
    const counterRows = metric === 'views' && items.length > 0 ? await repository.viewCountersAsOf(ids, [...counterDays].sort()) : [];

    const data: Data = { metric, connections, daily: new Map(), pledges: new Map(), traffic: new Map(), items, counters: new Map() };
    for (const row of dailyRows) {
      const days = data.daily.get(row.connection_id) ?? new Map<string, DayValues>();
      data.daily.set(row.connection_id, days);
      const values = days.get(row.date) ?? {};
      days.set(row.date, values);
      if (row.metric_type === 'views') values.views = Number(row.value);
      else if (row.metric_type === 'revenue') values.revenue = Number(row.value);
      else {
        const series = data.pledges.get(row.connection_id) ?? [];
        data.pledges.set(row.connection_id, series);
        series.push([row.date, Number(row.value)]);
      }
    }
    for (const series of data.pledges.values()) series.sort(([a], [b]) => a.localeCompare(b));
    for (const row of trafficRows) {
      const days = data.traffic.get(row.connection_id) ?? new Map<string, Map<string, number>>();
      data.traffic.set(row.connection_id, days);
      const sources = days.get(row.date) ?? new Map<string, number>();
      days.set(row.date, sources);
      add(sources, row.source_type.toUpperCase(), Number(row.views));
    }
    for (const row of counterRows) {
      const days = data.counters.get(row.item) ?? new Map<string, number>();
      data.counters.set(row.item, days);
      days.set(row.day, Number(row.value));
    }

    const now = measure(data, current);
    const before = measure(data, previous);
    // Consecutive past windows, newest first: history[k] against history[k + 1].
    const past = history.map((window) => measure(data, sameWindow(window)));

    const unit = metric === 'views' ? 1 : 100;
    const roundValue = (value: number) => Math.round(value * unit) / unit;
    const currentTotal = roundValue(now.total);
    const previousTotal = roundValue(before.total);
    const totalChange = roundValue(currentTotal - previousTotal);

    /** Past changes of a part: value in window k minus value in window k + 1, where both are known. */
    const pastChanges = (valueOf: (measured: Measured) => number | null | undefined) => {
      const changes: number[] = [];
      for (let k = 0; k + 1 < past.length; k += 1) {
        const newer = valueOf(past[k]!);
        const older = valueOf(past[k + 1]!);
        if (newer !== null && newer !== undefined && older !== null && older !== undefined) changes.push(newer - older);
      }
      return changes;
    };
    const variation = (change: number, changes: number[]): PartVariation => {
      const result = variationOf(change, changes);
      return result.status === 'notEnoughHistory' ? result : { ...result, median: roundValue(result.median), robustZ: result.robustZ === null ? null : Math.round(result.robustZ * 100) / 100 };
    };

    /** Rounds a split's raw parts to its (already rounded) change and words each part. */
    const split = (kind: SplitKind, title: string, basis: string, change: number, raw: RawPart[], history: (part: RawPart) => number[]): WhatChangedSplit => {
      const rounded = roundToTotal(
        raw.map((part) => part.change * unit),
        Math.round(change * unit),
      ).map((value) => value / unit);
      // A share of the net change says how much of it a part made, which holds only while every part moves with the
      // net: a part moving against it would make more than all of it (+12,000 of a net +1,000 read as 1,200 %).
      const against = rounded.some((value) => value !== 0 && Math.sign(value) !== Math.sign(change));
      const parts: WhatChangedPart[] = raw.map((part, index) => ({
        key: part.key,
        label: part.label,
        current: part.current === null ? null : roundValue(part.current),
        previous: part.previous === null ? null : roundValue(part.previous),
        change: rounded[index]!,
        share: change === 0 || against ? null : Math.round((rounded[index]! / change) * 10_000) / 10_000,
        variation: variation(part.change, history(part)),
        detail: part.detail ?? null,
        url: part.url ?? null,
      }));
      return { kind, title, change, available: true, reason: null, basis, parts };
    };
    const unavailable = (kind: SplitKind, title: string, basis: string, change: number, reason: string): WhatChangedSplit => ({
      kind,
      title,
      change,
      available: false,
      reason,
      basis,
      parts: [],
    });
    const sumPart = (key: string, label: string, valueOf: (measured: Measured) => number | null | undefined, extra: Partial<RawPart> = {}): RawPart => {
      const a = valueOf(now) ?? 0;
      const b = valueOf(before) ?? 0;
      return { key, label, current: a, previous: b, change: a - b, ...extra };
    };

    const splits: WhatChangedSplit[] = [];
    const notes: string[] = [];
    const unitName = metric === 'views' ? 'views' : 'revenue';

    // (a) By platform: each platform's sum over its connections' windows.
    const platforms = [...new Set(connections.map((connection) => connection.platform))];
    // A window where the platform has no rows is no evidence of its usual change (a platform connected lately).
    const platformValue = (platform: string) => (measured: Measured) => (measured.platformHasData.get(platform) ? measured.platform.get(platform) : undefined);
    const platformRaw = platforms
      .filter((platform) => now.platformHasData.get(platform) || before.platformHasData.get(platform))
      .map((platform) => sumPart(platform, platformDisplayName(platform), platformValue(platform)));
    const platformSplit = split(
      'platform',
      'By platform',
      metric === 'views'
        ? "Each platform's views per day: YouTube's own daily report, TikTok's and X's from how much their posts' view counts grew each day, the others' daily insights."
        : 'YouTube estimated revenue per day, plus the monthly pledges of each Patreon campaign in US dollars (its latest in the period, each day its monthly level over the days of that day\u2019s month).',
      totalChange,
      platformRaw,
      (part) => pastChanges(platformValue(part.key)),
    );
    splits.push(platformSplit);
    for (const platform of platforms) {
      const inNow = now.platformHasData.get(platform) === true;
      const inBefore = before.platformHasData.get(platform) === true;
      if (inNow !== inBefore) {
        notes.push(`${platformDisplayName(platform)} has no ${unitName} in the ${inNow ? 'comparison' : 'current'} period: its whole ${inNow ? 'current' : 'earlier'} figure counts as change.`);
      }
    }
    const youtubeChange = platformSplit.parts.find((part) => part.key === 'youtube')?.change ?? 0;
    const hasYoutube = platformRaw.some((part) => part.key === 'youtube');

    if (metric === 'views') {
      // (b) YouTube's views by traffic source: the daily channel traffic sources; the rest of YouTube's daily views
      // (days without a traffic report, rounding in YouTube's own reports) is "not attributed".
      if (!hasYoutube) splits.push(unavailable('trafficSource', 'YouTube views by traffic source', CHANNEL_TRAFFIC_BASIS, 0, 'No YouTube views in either period.'));
      else if (!now.hasTraffic && !before.hasTraffic) {
        splits.push(unavailable('trafficSource', 'YouTube views by traffic source', CHANNEL_TRAFFIC_BASIS, youtubeChange, 'No traffic sources are stored for these periods yet.'));
      } else {
        const sources = [...new Set([...now.traffic.keys(), ...before.traffic.keys()])].filter((key) => key !== UNATTRIBUTED);
        const raw = sources
          .map((source) => sumPart(source, trafficSourceName(source), (measured) => measured.traffic.get(source)))
          .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.key.localeCompare(b.key));
        const rest = sumPart(UNATTRIBUTED, 'Not attributed to a source', (measured) => measured.traffic.get(UNATTRIBUTED));
        if (Math.abs(rest.change) >= 0.5 / unit || Math.abs(rest.current ?? 0) >= 0.5) raw.push(rest);
        splits.push(
          split(
            'trafficSource',
            'YouTube views by traffic source',
            `${CHANNEL_TRAFFIC_BASIS} Views on days YouTube gave no sources for are not attributed.`,
            youtubeChange,
            raw,
            (part) => pastChanges((measured) => (measured.hasTraffic ? (measured.traffic.get(part.key) ?? 0) : undefined)),
          ),
        );
      }

      // (c) New uploads (published in the period) against the back catalogue; (d) the top 10 items.
      const itemBasis =
        "A post's views in a period: YouTube's daily views of the video where we have them for the period, else how much its view count grew between our daily reads. Views no post accounts for (posts we first read after the period began, deleted posts, platforms that count no views per post) are not attributed.";
      if (items.length === 0) {
        splits.push(unavailable('uploads', 'New uploads and back catalogue', itemBasis, totalChange, 'No content items are stored for these platforms.'));
        splits.push(unavailable('items', 'Top contributing items', itemBasis, totalChange, 'No content items are stored for these platforms.'));
      } else {
        const uploads = [
          sumPart('new', 'New uploads', (measured) => measured.uploads.get('new')),
          sumPart('back', 'Back catalogue', (measured) => measured.uploads.get('back')),
          sumPart(UNATTRIBUTED, 'Not attributed to an item', (measured) => measured.uploads.get(UNATTRIBUTED)),
        ];
        splits.push(split('uploads', 'New uploads and back catalogue', `New uploads: published in the period itself. ${itemBasis}`, totalChange, uploads, (part) =>
          // A window whose new uploads or back catalogue include items of unknown views is no evidence of the usual.
          pastChanges((measured) => (measured.uploadsKnown.get('new') && measured.uploadsKnown.get('back') ? measured.uploads.get(part.key) : undefined)),
        ));

        // Items known in both periods; an item known in one only leaves its views to "not attributed".
        const known = items
          .map((item) => ({ item, a: now.items.get(item.id), b: before.items.get(item.id) }))
          .filter((entry): entry is { item: ScopeItem; a: number; b: number } => entry.a !== null && entry.a !== undefined && entry.b !== null && entry.b !== undefined)
          .map((entry) => ({ ...entry, change: entry.a - entry.b }))
          .sort((x, y) => Math.abs(y.change) - Math.abs(x.change) || x.item.id - y.item.id);
        const top = known.slice(0, TOP_ITEMS).filter((entry) => entry.change !== 0);
        const others = known.slice(top.length);
        const raw: RawPart[] = top.map(({ item, a, b }) => ({
          key: String(item.id),
          label: item.title.trim() === '' ? 'Untitled' : item.title,
          current: a,
          previous: b,
          change: a - b,
          detail: `${platformDisplayName(connections.find((c) => c.id === item.connection_id)?.platform ?? '')}${item.published_day ? `, published ${dayInWords(item.published_day)}` : ''}`,
          url: item.url,
        }));
        const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
        const othersNow = sum(others.map((entry) => entry.a));
        const othersBefore = sum(others.map((entry) => entry.b));
        raw.push({ key: OTHER_ITEMS, label: `All other items (${others.length})`, current: othersNow, previous: othersBefore, change: othersNow - othersBefore });
        const knownNow = sum(known.map((entry) => entry.a));
        const knownBefore = sum(known.map((entry) => entry.b));
        raw.push({ key: UNATTRIBUTED, label: 'Not attributed to an item', current: now.total - knownNow, previous: before.total - knownBefore, change: now.total - knownNow - (before.total - knownBefore) });
        const topIds = new Set(top.map((entry) => String(entry.item.id)));
        splits.push(
          split('items', 'Top contributing items', `The 10 items whose views changed most, the rest summed. ${itemBasis}`, totalChange, raw, (part) => {
            if (topIds.has(part.key)) return pastChanges((measured) => measured.itemsExisting.get(Number(part.key)));
            return [];
          }),
        );
      }
    } else {
      const reason = 'YouTube reports revenue per channel and day, and per video only as a lifetime total as of the last read: no per-video or per-source revenue of a period is stored.';
      splits.push(unavailable('trafficSource', 'YouTube revenue by traffic source', 'YouTube reports traffic sources for views and watch time only.', youtubeChange, 'YouTube reports no revenue by traffic source.'));
      splits.push(unavailable('uploads', 'New uploads and back catalogue', 'Per-item revenue of a period.', totalChange, reason));
      splits.push(unavailable('items', 'Top contributing items', 'Per-item revenue of a period.', totalChange, reason));

      // (e) YouTube revenue = views × RPM / 1000, split by LMDI.
      const basis = "YouTube revenue = views × RPM / 1,000 (RPM: revenue per 1,000 views) over the same days, split by the log-mean Divisia index: ΔR = L(R₁,R₀)·ln(V₁/V₀) + L(R₁,R₀)·ln(RPM₁/RPM₀); a zero on one side follows the analytical-limit rule.";
      if (!hasYoutube) splits.push(unavailable('funnel', 'YouTube revenue: views × RPM', basis, 0, 'No YouTube revenue in either period.'));
      else {
        const funnel = funnelSplit({ revenue: now.youtubeRevenue, views: now.youtubeViews }, { revenue: before.youtubeRevenue, views: before.youtubeViews });
        if (!funnel.available) splits.push(unavailable('funnel', 'YouTube revenue: views × RPM', basis, youtubeChange, `Not available: ${funnel.reason}.`));
        else {
          const rpm = (measured: Measured) => (measured.youtubeViews > 0 ? (measured.youtubeRevenue / measured.youtubeViews) * 1000 : null);
          const money = (value: number | null) => (value === null ? 'none (no views)' : formatMoney(value));
          const pastFunnel = (factor: 'views' | 'rpm') => {
            const changes: number[] = [];
            for (let k = 0; k + 1 < past.length; k += 1) {
              const effect = funnelSplit({ revenue: past[k]!.youtubeRevenue, views: past[k]!.youtubeViews }, { revenue: past[k + 1]!.youtubeRevenue, views: past[k + 1]!.youtubeViews });
              if (effect.available) changes.push(effect[factor]);
            }
            return changes;
          };
          splits.push(
            split(
              'funnel',
              'YouTube revenue: views × RPM',
              basis,
              youtubeChange,
              [
                { key: 'views', label: 'Views', current: null, previous: null, change: funnel.views, detail: `Views ${Math.round(before.youtubeViews).toLocaleString('en-US')} → ${Math.round(now.youtubeViews).toLocaleString('en-US')}` },
                { key: 'rpm', label: 'RPM (revenue per 1,000 views)', current: null, previous: null, change: funnel.rpm, detail: `RPM ${money(rpm(before))} → ${money(rpm(now))}` },
              ],
              (part) => pastFunnel(part.key as 'views' | 'rpm'),
            ),
          );
        }
      }
      // Patreon campaigns not in US dollars: left out, as from Total Revenue (contract revenueCurrencyNote).
      const notUsd = new Map<string | null, { amount: number; connections: number }>();
      for (const connection of connections) {
        if (connection.platform !== 'patreon' || connection.currency === 'USD') continue;
        const latest = latestOnOrBefore(data.pledges.get(connection.id), endDate);
        if (latest === undefined) continue;
        const entry = notUsd.get(connection.currency) ?? { amount: 0, connections: 0 };
        notUsd.set(connection.currency, { amount: entry.amount + latest, connections: entry.connections + 1 });
      }
      const currencyNote = revenueCurrencyNote([...notUsd.entries()].map(([currency, entry]) => ({ currency, monthlyAmount: entry.amount, connections: entry.connections })));
      notes.push('Revenue in US dollars (USD).');
      if (currencyNote) notes.push(currencyNote);
    }
    notes.push(...cutNotes);
    if (history.length < 2 || history.length - 1 < 8) {
      notes.push(`Unusual or not is judged on the changes between past ${length}-day windows: ${Math.max(0, history.length - 1)} available, 8 needed.`);
    }

    return whatChangedResponse.parse({
      metric,
      currency: metric === 'revenue' ? 'USD' : null,
      startDate,
      endDate,
      compareStartDate,
      compareEndDate,
      // Nothing comparable (no connection holds a day of both periods): no figure, rather than 0 against 0.
      current: comparable ? currentTotal : null,
      previous: comparable ? previousTotal : null,
      change: comparable ? totalChange : null,
      windowDays: length,
      historyWindows: history.length,
      splits,
      notes,
    });
  }

  return { whatChanged };
}

export type WhatChangedService = ReturnType<typeof createWhatChangedService>;
