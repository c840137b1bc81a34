// One period's values of every part of "What changed" (docs/decisions/021-what-changed.md), measured from the stored
// rows over each connection's window: per platform, YouTube's views and revenue, its views by traffic source, new
// uploads against the back catalogue, and each item's views. Pure: the service loads the rows and compares two periods.
import { daysInPeriod, shiftDay } from '#contract/comparison.ts';
import type { WhatChangedMetric } from '#contract/what-changed.ts';
import { pledgesOverDays } from '../../lib/pledges.ts';
import type { ScopeConnection, ScopeItem } from './what-changed.repository.ts';

/** The part of a split that stored rows cannot place (see the decision record). */
export const UNATTRIBUTED = '_unattributed';

export interface Window {
  start: string;
  end: string;
}
/** Each connection's window of a period (null: the connection has no days in it). */
export type Windows = Map<number, Window | null>;

export interface DayValues {
  views?: number;
  revenue?: number;
}

export interface Data {
  metric: WhatChangedMetric;
  connections: ScopeConnection[];
  daily: Map<number, Map<string, DayValues>>;
  /** Monthly pledges per connection, [day, amount] sorted by day. */
  pledges: Map<number, [string, number][]>;
  traffic: Map<number, Map<string, Map<string, number>>>;
  items: ScopeItem[];
  counters: Map<number, Map<string, number>>;
}

/** One period's values of every part, in the metric's unit (views, USD). null: not known for that period. */
export interface Measured {
  total: number;
  platform: Map<string, number>;
  platformHasData: Map<string, boolean>;
  youtubeViews: number;
  youtubeRevenue: number;
  traffic: Map<string, number>;
  hasTraffic: boolean;
  uploads: Map<string, number>;
  /** Whether every item of the category ('new', 'back') has known views: only then is the window history. */
  uploadsKnown: Map<string, boolean>;
  items: Map<number, number | null>;
  /** Items' views where the item existed for the whole window (else null): an item's own history. */
  itemsExisting: Map<number, number | null>;
}

export const dayDiff = (from: string, to: string) => daysInPeriod(from, to) - 1;

export function* daysOf(window: Window) {
  for (let day = window.start; day <= window.end; day = shiftDay(day, 1)) yield day;
}

/** The value of the last [day, value] pair (sorted by day) on or before `day`. */
export function latestOnOrBefore(series: readonly (readonly [string, number])[] | undefined, day: string): number | undefined {
  if (!series) return undefined;
  let found: number | undefined;
  for (const [date, value] of series) {
    if (date > day) break;
    found = value;
  }
  return found;
}

export const add = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value);

/** An item's views in a window: YouTube's early daily views where they cover it, else the growth of its counter. */
export function itemViews(item: ScopeItem, window: Window, counters: Map<string, number> | undefined): number | null {
  const published = item.published_day;
  if (published !== null && published > window.end) return 0;
  if (published !== null && item.early_views && dayDiff(published, window.end) < item.early_views.length) {
    let sum = 0;
    for (let index = Math.max(0, dayDiff(published, window.start)); index <= dayDiff(published, window.end); index += 1) sum += Number(item.early_views[index] ?? 0);
    return sum;
  }
  const end = counters?.get(window.end);
  if (end === undefined) return null;
  const start = published !== null && published >= window.start ? 0 : counters?.get(shiftDay(window.start, -1));
  return start === undefined ? null : end - start;
}

export function measure(data: Data, windows: Windows): Measured {
  const measured: Measured = {
    total: 0,
    platform: new Map(),
    platformHasData: new Map(),
    youtubeViews: 0,
    youtubeRevenue: 0,
    traffic: new Map(),
    hasTraffic: false,
    uploads: new Map([
      ['new', 0],
      ['back', 0],
    ]),
    uploadsKnown: new Map([
      ['new', true],
      ['back', true],
    ]),
    items: new Map(),
    itemsExisting: new Map(),
  };
  for (const connection of data.connections) {
    const window = windows.get(connection.id);
    measured.platform.set(connection.platform, measured.platform.get(connection.platform) ?? 0);
    if (!window) continue;
    const days = data.daily.get(connection.id);
    let value = 0;
    let views = 0;
    let revenue = 0;
    let hasData = false;
    for (const day of daysOf(window)) {
      const row = days?.get(day);
      if (!row) continue;
      if (row.views !== undefined) views += row.views;
      if (row.revenue !== undefined) revenue += row.revenue;
      if (data.metric === 'views' ? row.views !== undefined : row.revenue !== undefined) hasData = true;
    }
    // Patreon, US dollars only: the window's pledges day by day, each day's monthly level over its month's days (Total
    // Revenue's rule, server/lib/pledges.ts).
    const pledges = data.metric === 'revenue' && connection.currency === 'USD' ? pledgesOverDays(data.pledges.get(connection.id) ?? [], daysOf(window)) : undefined;
    if (pledges !== undefined) hasData = true;
    value = data.metric === 'views' ? views : revenue + (pledges ?? 0);
    measured.total += value;
    add(measured.platform, connection.platform, value);
    if (hasData) measured.platformHasData.set(connection.platform, true);
    if (connection.platform === 'youtube') {
      measured.youtubeViews += views;
      measured.youtubeRevenue += revenue;
      const traffic = data.traffic.get(connection.id);
      let sourced = 0;
      for (const day of daysOf(window)) {
        for (const [source, sourceViews] of traffic?.get(day) ?? []) {
          add(measured.traffic, source, sourceViews);
          sourced += sourceViews;
          measured.hasTraffic = true;
        }
      }
      add(measured.traffic, UNATTRIBUTED, views - sourced);
    }
  }
  if (data.metric === 'views') {
    for (const item of data.items) {
      // An item of a connection left out of the comparison (no window) is not measured at all, not a known 0.
      const window = windows.get(item.connection_id);
      if (!window) continue;
      const views = itemViews(item, window, data.counters.get(item.id));
      measured.items.set(item.id, views);
      measured.itemsExisting.set(item.id, item.published_day !== null && item.published_day >= window.start ? null : views);
      if (item.published_day !== null && item.published_day > window.end) continue;
      const category = item.published_day !== null && item.published_day >= window.start ? 'new' : 'back';
      if (views === null) measured.uploadsKnown.set(category, false);
      else add(measured.uploads, category, views);
    }
    const placed = (measured.uploads.get('new') ?? 0) + (measured.uploads.get('back') ?? 0);
    measured.uploads.set(UNATTRIBUTED, measured.total - placed);
  }
  return measured;
}
