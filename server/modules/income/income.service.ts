// The income view (issue 17, decision 023): per day or month, YouTube's estimated revenue in its three parts (in US
// dollars, as YouTube reports it) and each Patreon campaign's pledges of paying patrons (in the campaign's currency,
// a month's pledges spread over the month's days); new, churned and net patrons; each platform's share of income
// against its share of views; income per 1,000 views. Every amount keeps its own currency and is converted into the
// user's display currency only with a rate on or before its day; without one it is never summed.
import type { AppliedRate, IncomeLine, IncomePeriod, IncomeQuery, IncomeResponse, IncomeSource, PlatformShare } from '#contract/income.ts';
import { INCOME_PLATFORMS, incomeQuery } from '#contract/income.ts';
import { PLATFORM_NAMES } from '#contract/platforms.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { addDays, dayOf } from '../../lib/dates.ts';
import { carriedForward, convert, convertedTotal, daysBetween, periodOf, pledgeForDay, type RateHistory, shares, sumByCurrency } from './income-maths.ts';
import type { DailyValue, IncomeConnection, IncomeRepository } from './income.repository.ts';

/** YouTube reports revenue in US dollars (the Analytics API's default currency, which the sync does not change). */
export const YOUTUBE_REVENUE_CURRENCY = 'USD';

interface DayAmount {
  source: IncomeSource;
  connectionId: number;
  currency: string | null;
  day: string;
  amount: number;
}

export function createIncomeService({ repository, clock }: { repository: IncomeRepository; clock: Clock }) {
  async function income(userId: number, rawQuery: IncomeQuery): Promise<IncomeResponse> {
    const parsed = incomeQuery.safeParse(rawQuery);
    if (!parsed.success) throw new AppError('bad_request', parsed.error.issues.map((issue) => issue.message).join('; '));
    const { startDate, granularity } = parsed.data;
    // Nothing is known of days after today: the range stops there.
    const today = dayOf(clock.now());
    const endDate = parsed.data.endDate < today ? parsed.data.endDate : today < startDate ? startDate : today;
    const days = daysBetween(startDate, endDate);

    const [displayCurrency, allConnections] = await Promise.all([repository.displayCurrency(userId), repository.connections(userId)]);
    const youtube = allConnections.filter((connection) => connection.platform === 'youtube');
    const patreon = allConnections.filter((connection) => connection.platform === 'patreon');
    const ids = allConnections.map((connection) => connection.id);
    const patreonIds = patreon.map((connection) => connection.id);
    const [daily, levels, flows, withEvents] = await Promise.all([
      repository.dailyValues(ids, startDate, endDate),
      repository.levelReadings(patreonIds, startDate, endDate),
      repository.patronFlows(patreonIds, startDate, endDate),
      repository.connectionsWithPatronEvents(patreonIds),
    ]);

    const amounts = [...youtubeAmounts(youtube, daily), ...pledgeAmounts(patreon, levels, days)];
    const currencies = [...new Set([displayCurrency, ...amounts.map((amount) => amount.currency)].filter((currency): currency is string => currency !== null && currency !== 'EUR'))];
    const rateRows = await repository.rates(currencies, startDate, endDate);
    const rates = new Map<string, RateHistory>();
    for (const row of rateRows) rates.set(row.currency, [...(rates.get(row.currency) ?? []), row]);

    // Each day's amount converted at that day's rate; the latest rate date used per currency is shown.
    const applied = new Map<string, AppliedRate>();
    const converted = amounts.map((amount) => {
      if (amount.currency === null) return null;
      const conversion = convert(amount.amount, amount.currency, displayCurrency, amount.day, rates);
      if (conversion && amount.currency !== displayCurrency) {
        const known = applied.get(amount.currency);
        if (!known || conversion.rateDate >= known.rateDate) applied.set(amount.currency, { currency: amount.currency, rate: conversion.rate, rateDate: conversion.rateDate, source: conversion.source });
      }
      return conversion?.amount ?? null;
    });

    const accountOf = new Map(allConnections.map((connection) => [connection.id, connection.account]));
    const periodKeys = [...new Set(days.map((day) => periodOf(day, granularity)))];
    const periodDays = new Map<string, string[]>();
    for (const day of days) periodDays.set(periodOf(day, granularity), [...(periodDays.get(periodOf(day, granularity)) ?? []), day]);

    const viewsByDay = new Map<string, number>();
    const viewsByPlatform = new Map<string, number>();
    const platformOf = new Map(allConnections.map((connection) => [connection.id, connection.platform]));
    for (const row of daily) {
      if (row.metricType !== 'views') continue;
      viewsByDay.set(row.day, (viewsByDay.get(row.day) ?? 0) + row.value);
      const platform = platformOf.get(row.connectionId)!;
      viewsByPlatform.set(platform, (viewsByPlatform.get(platform) ?? 0) + row.value);
    }

    const patronCounts = patronCountsByDay(patreon, levels);
    const allHaveEvents = patreon.length > 0 && patreon.every((connection) => withEvents.has(connection.id));

    const periods: IncomePeriod[] = periodKeys.map((period) => {
      const inPeriod = new Set(periodDays.get(period)!);
      const first = periodDays.get(period)![0]!;
      const last = periodDays.get(period)!.at(-1)!;
      const lineMap = new Map<string, { line: DayAmount; original: number; converted: number | null }>();
      amounts.forEach((amount, index) => {
        if (!inPeriod.has(amount.day)) return;
        const key = `${amount.source}:${amount.connectionId}`;
        const entry = lineMap.get(key) ?? { line: amount, original: 0, converted: 0 };
        entry.original += amount.amount;
        entry.converted = entry.converted === null || converted[index] === null ? null : entry.converted + converted[index]!;
        lineMap.set(key, entry);
      });
      const lines: IncomeLine[] = [...lineMap.values()].map(({ line, original, converted: inDisplay }) => ({
        source: line.source,
        connectionId: line.connectionId,
        account: accountOf.get(line.connectionId) ?? null,
        original: { currency: line.currency, amount: original },
        converted: inDisplay,
      }));
      const flowsInPeriod = flows.filter((flow) => inPeriod.has(flow.date));
      const joined = flowsInPeriod.reduce((sum, flow) => sum + flow.newPatrons, 0);
      const left = flowsInPeriod.reduce((sum, flow) => sum + flow.churnedPatrons, 0);
      const dayBefore = patronCounts.before(first);
      const atEnd = patronCounts.on(last);
      return {
        period,
        startDate: first,
        endDate: last,
        lines,
        total: lines.length === 0 ? 0 : convertedTotal(lines.map((line) => line.converted)),
        totalsByCurrency: sumByCurrency(lines.map((line) => line.original)),
        views: [...inPeriod].reduce((sum, day) => sum + (viewsByDay.get(day) ?? 0), 0),
        patrons: {
          new: allHaveEvents ? joined : null,
          churned: allHaveEvents ? left : null,
          // The platform's own counts on both sides where stored; else the joins and departures, when every campaign's
          // are stored for the period (each paying patron who came or went is one of them).
          net: dayBefore !== undefined && atEnd !== undefined ? atEnd - dayBefore : allHaveEvents ? joined - left : null,
        },
      };
    });

    const total = amounts.length === 0 ? 0 : convertedTotal(converted);
    const totalViews = [...viewsByDay.values()].reduce((sum, value) => sum + value, 0);
    return {
      startDate,
      endDate,
      granularity,
      displayCurrency,
      periods,
      totals: {
        total,
        totalsByCurrency: sumByCurrency(amounts.map((amount) => ({ currency: amount.currency, amount: amount.amount }))),
        unconverted: sumByCurrency(periods.flatMap((period) => period.lines.filter((line) => line.converted === null).map((line) => line.original))),
        views: totalViews,
        incomePer1000Views: total !== null && totalViews > 0 ? (total / totalViews) * 1000 : null,
      },
      shares: platformShares(allConnections, amounts, converted, viewsByPlatform),
      rates: [...applied.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
      hasIncomeSources: youtube.length + patreon.length > 0,
    };
  }

  return { income };
}

export type IncomeService = ReturnType<typeof createIncomeService>;

/** YouTube's daily estimated revenue as ads, Premium and the rest (transactions), in US dollars. */
function youtubeAmounts(youtube: IncomeConnection[], daily: DailyValue[]): DayAmount[] {
  const ids = new Set(youtube.map((connection) => connection.id));
  const byDay = new Map<string, { connectionId: number; day: string; revenue?: number; ad?: number; premium?: number }>();
  for (const row of daily) {
    if (!ids.has(row.connectionId)) continue;
    const key = `${row.connectionId}:${row.day}`;
    const entry = byDay.get(key) ?? { connectionId: row.connectionId, day: row.day };
    if (row.metricType === 'revenue') entry.revenue = row.value;
    else if (row.metricType === 'ad_revenue') entry.ad = row.value;
    else if (row.metricType === 'premium_revenue') entry.premium = row.value;
    byDay.set(key, entry);
  }
  const amounts: DayAmount[] = [];
  for (const entry of byDay.values()) {
    // A day without estimatedRevenue (a channel outside the Partner Program) has no income, not zero income.
    if (entry.revenue === undefined) continue;
    const ad = entry.ad ?? 0;
    const premium = entry.premium ?? 0;
    // YouTube rounds each metric to cents: the rest is never shown below zero.
    const other = Math.max(0, entry.revenue - ad - premium);
    const base = { connectionId: entry.connectionId, currency: YOUTUBE_REVENUE_CURRENCY, day: entry.day };
    amounts.push({ ...base, source: 'youtube_ad', amount: ad }, { ...base, source: 'youtube_premium', amount: premium }, { ...base, source: 'youtube_other', amount: other });
  }
  return amounts.sort((a, b) => a.day.localeCompare(b.day));
}

/** Each campaign's pledges per day: the monthly amount as last read on or before the day, over the month's days. */
function pledgeAmounts(patreon: IncomeConnection[], levels: DailyValue[], days: string[]): DayAmount[] {
  const amounts: DayAmount[] = [];
  for (const connection of patreon) {
    const readings = levels
      .filter((row) => row.connectionId === connection.id && row.metricType === 'monthly_pledges')
      .sort((a, b) => a.day.localeCompare(b.day))
      .map((row) => ({ day: row.day, value: row.value }));
    carriedForward(readings, days).forEach((monthly, index) => {
      if (monthly === undefined) return;
      amounts.push({ source: 'patreon_pledges', connectionId: connection.id, currency: connection.currency, day: days[index]!, amount: pledgeForDay(monthly, days[index]!) });
    });
  }
  return amounts;
}

/** Paying patrons of all campaigns on a day (undefined unless every campaign has a count by then). */
function patronCountsByDay(patreon: IncomeConnection[], levels: DailyValue[]) {
  const byConnection = patreon.map((connection) =>
    levels
      .filter((row) => row.connectionId === connection.id && row.metricType === 'patrons')
      .sort((a, b) => a.day.localeCompare(b.day))
      .map((row) => ({ day: row.day, value: row.value })),
  );
  const on = (day: string): number | undefined => {
    if (byConnection.length === 0) return undefined;
    let total = 0;
    for (const readings of byConnection) {
      const [value] = carriedForward(readings, [day]);
      if (value === undefined) return undefined;
      total += value;
    }
    return total;
  };
  const before = (day: string) => on(addDays(day, -1));
  return { on, before };
}

/** Each platform's income (display currency) against its views, over the whole range. */
function platformShares(connections: IncomeConnection[], amounts: DayAmount[], converted: (number | null)[], viewsByPlatform: Map<string, number>): PlatformShare[] {
  const platformOf = new Map(connections.map((connection) => [connection.id, connection.platform]));
  const present = PLATFORM_NAMES.filter((platform) => connections.some((connection) => connection.platform === platform));
  const income = new Map<string, number | null>(present.map((platform) => [platform, 0]));
  amounts.forEach((amount, index) => {
    const platform = platformOf.get(amount.connectionId)!;
    const sofar = income.get(platform);
    income.set(platform, sofar === null || sofar === undefined || converted[index] === null ? null : sofar + converted[index]!);
  });
  const reported = present.filter((platform) => INCOME_PLATFORMS.includes(platform));
  const incomes = reported.map((platform) => income.get(platform) as number | null);
  const everyIncomeConverted = incomes.every((value) => value !== null);
  const incomeShares = everyIncomeConverted ? shares(incomes as number[]) : incomes.map(() => null);
  const shareOf = new Map(reported.map((platform, index) => [platform, { income: incomes[index]!, incomeShare: incomeShares[index]! }]));
  const views = present.map((platform) => viewsByPlatform.get(platform) ?? 0);
  const viewShares = shares(views);
  return present.map((platform, index) => ({
    platform,
    incomeReported: shareOf.has(platform),
    // A platform whose income no API we read reports has none to show: not $0.00, and no share of the total.
    income: shareOf.get(platform)?.income ?? null,
    incomeShare: shareOf.get(platform)?.incomeShare ?? null,
    views: views[index]!,
    viewsShare: viewShares[index]!,
  }));
}
