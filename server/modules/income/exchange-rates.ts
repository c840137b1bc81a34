// The ECB's euro foreign exchange reference rates (decision 023): read from its daily file, or the 90-day file when
// the stored rates are more than a few days old (a long stop), or the full-history file when there are none or the
// gap is longer than the 90 days (a first start: the income view reaches back INCOME_MAX_DAYS, and its older months
// must convert too); parsed strictly, stored per day and currency, nothing older than the income view can show. A daily job on the one queue runs it once across processes; reading the same file twice stores the same
// rows (an upsert).
import type { FastifyBaseLogger } from 'fastify';
import { desc, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { chunks, insertRows } from '../../db/bulk-insert.ts';
import type { Database } from '../../db/client.ts';
import { exchangeRates } from '../../db/schema.ts';
import type { JobDefinition } from '../../jobs/job-definition.ts';
import type { Clock } from '../../lib/clock.ts';
import { addDays, dayOf } from '../../lib/dates.ts';
import { INCOME_MAX_DAYS } from '#contract/income.ts';

export const ECB_SOURCE = 'European Central Bank';
const ECB_ORIGIN = 'https://www.ecb.europa.eu';
const DAILY_PATH = '/stats/eurofxref/eurofxref-daily.xml';
const NINETY_DAYS_PATH = '/stats/eurofxref/eurofxref-hist-90d.xml';
const HISTORY_PATH = '/stats/eurofxref/eurofxref-hist.xml';
/** Older stored rates than this (a weekend and a holiday) and the 90-day file fills the gap. */
const STALE_AFTER_DAYS = 4;
/** Beyond this gap the 90-day file (90 calendar days up to its newest publication) cannot fill it: the full history. */
const NINETY_DAY_FILE_REACH = 85;
/** Rates older than the income view's longest range are not stored (the full-history file goes back to 1999). */
const KEEP_DAYS = INCOME_MAX_DAYS + 7;

type RatesFile = 'daily' | '90-day' | 'full history';

export interface EcbRate {
  day: string;
  currency: string;
  perEuro: number;
}

export class ExchangeRatesError extends Error {
  override name = 'ExchangeRatesError';
}

/**
 * Every `<Cube time='…'>` with its `<Cube currency='…' rate='…'/>` children. A file without a dated cube, or with a
 * rate that is not a positive number, is refused whole: nothing half-read is stored. Days before `since` are skipped.
 */
export function parseEcbXml(xml: string, since = ''): EcbRate[] {
  if (!xml.includes('gesmes:Envelope')) throw new ExchangeRatesError('The ECB answered something other than its rates file.');
  const rates: EcbRate[] = [];
  const dayBlocks = [...xml.matchAll(/<Cube\s+time=['"](\d{4}-\d{2}-\d{2})['"]\s*>([\s\S]*?)<\/Cube>/g)];
  if (dayBlocks.length === 0) throw new ExchangeRatesError('The ECB rates file holds no dated rates.');
  for (const [, day, body] of dayBlocks) {
    // Days before `since` are not read at all: what is not kept is not judged (the full history goes back to 1999).
    if (day! < since) continue;
    for (const [, currency, rate] of body!.matchAll(/<Cube\s+currency=['"]([A-Z]{3})['"]\s+rate=['"]([^'"]*)['"]\s*\/>/g)) {
      const perEuro = Number(rate);
      if (!Number.isFinite(perEuro) || perEuro <= 0) throw new ExchangeRatesError(`The ECB rate of ${currency} on ${day} is not a positive number.`);
      rates.push({ day: day!, currency: currency!, perEuro });
    }
  }
  return rates;
}

/**
 * `apiUrl` stands in for https://www.ecb.europa.eu as every platform's does for its hosts: `<apiUrl>/www.ecb.europa.eu/<path>`.
 * Undefined: the ECB itself.
 */
export function ecbUrl(path: string, apiUrl: string | undefined): string {
  return apiUrl ? `${apiUrl}/www.ecb.europa.eu${path}` : `${ECB_ORIGIN}${path}`;
}

export function createExchangeRates({ db, clock, apiUrl, timeoutMs, logger }: { db: Database; clock: Clock; apiUrl: string | undefined; timeoutMs: number; logger: FastifyBaseLogger }) {
  async function download(path: string, since: string): Promise<EcbRate[]> {
    const url = ecbUrl(path, apiUrl);
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/xml, text/xml' } });
    } catch (error) {
      throw new ExchangeRatesError(`The ECB rates could not be fetched: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok) throw new ExchangeRatesError(`The ECB answered ${response.status} for ${path}.`);
    return parseEcbXml(await response.text(), since);
  }

  async function newestDay(): Promise<string | undefined> {
    const [row] = await db.select({ day: exchangeRates.day }).from(exchangeRates).orderBy(desc(exchangeRates.day)).limit(1);
    return row?.day;
  }

  /** Fetches what is missing and stores it; answers how many rates were read and from which file. */
  async function refresh(): Promise<{ file: RatesFile; rates: number; newestDay: string | undefined }> {
    const newest = await newestDay();
    const today = dayOf(clock.now());
    const file: RatesFile =
      !newest || newest < addDays(today, -NINETY_DAY_FILE_REACH) ? 'full history' : newest < addDays(today, -STALE_AFTER_DAYS) ? '90-day' : 'daily';
    const oldestKept = addDays(today, -KEEP_DAYS);
    const rates = await download(file === 'full history' ? HISTORY_PATH : file === '90-day' ? NINETY_DAYS_PATH : DAILY_PATH, oldestKept);
    const fetchedAt = clock.now();
    // One array parameter per column (server/db/bulk-insert.ts): the full history's 16,000 rates in four statements.
    for (const batch of chunks(rates)) {
      const insert = insertRows(exchangeRates, batch.map((rate) => ({ ...rate, source: ECB_SOURCE, fetchedAt })));
      if (insert) await db.execute(sql`${insert} on conflict (currency, day) do update set per_euro = excluded.per_euro, source = excluded.source, fetched_at = excluded.fetched_at`);
    }
    const stored = await newestDay();
    logger.info({ event: 'exchange_rates.stored', file, rates: rates.length, newestDay: stored }, 'ECB reference rates stored');
    return { file, rates: rates.length, newestDay: stored };
  }

  return { refresh, newestDay };
}

export type ExchangeRates = ReturnType<typeof createExchangeRates>;

export const EXCHANGE_RATES_JOB = 'exchange-rates-fetch';
/** Daily after the ECB's publication (about 16:00 CET), on weekdays; pg-boss fires each tick once across processes. */
const FETCH_CRON = '30 15 * * 1-5';

/**
 * The daily fetch, plus a sweep in every worker process (hourly, and at start-up) that queues a fetch at once when the
 * stored rates are stale: a fresh install converts within a minute, not at the next 15:30. The queue's stately
 * policy keeps those queued fetches to one.
 */
export function exchangeRatesJob({ rates, boss, clock, logger }: { rates: ExchangeRates; boss: PgBoss; clock: Clock; logger: FastifyBaseLogger }): JobDefinition {
  return {
    name: EXCHANGE_RATES_JOB,
    queue: { policy: 'stately', retryLimit: 5, retryDelay: 300, retryBackoff: true, expireInSeconds: 120 },
    schedule: FETCH_CRON,
    work: { pollingIntervalSeconds: 30 },
    async handle() {
      await rates.refresh();
    },
    sweep: {
      intervalSeconds: 3600,
      async run() {
        const newest = await rates.newestDay();
        if (newest && newest >= addDays(dayOf(clock.now()), -STALE_AFTER_DAYS)) return;
        await boss.send(EXCHANGE_RATES_JOB, {}).catch((error: unknown) => logger.warn({ err: error }, 'the exchange rate fetch could not be queued'));
      },
    },
  };
}
