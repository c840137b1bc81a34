// A stand-in for the ECB's euro foreign exchange reference rates (decision 023): the same two files in the same XML
// (gesmes:Envelope > Cube > Cube time > Cube currency/rate), at `<baseUrl>/www.ecb.europa.eu/stats/eurofxref/…`, the
// product's one rewrite of `https://<host>/<path>`. Rates are published on weekdays only, from 16:00 CET (15:00 UTC
// here), and move a little from day to day around realistic levels, the same on every run.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const ECB_SANDBOX_HOST = 'www.ecb.europa.eu';
const DAILY_PATH = `/${ECB_SANDBOX_HOST}/stats/eurofxref/eurofxref-daily.xml`;
const NINETY_DAYS_PATH = `/${ECB_SANDBOX_HOST}/stats/eurofxref/eurofxref-hist-90d.xml`;
const HISTORY_PATH = `/${ECB_SANDBOX_HOST}/stats/eurofxref/eurofxref-hist.xml`;
/** The first publication day of the euro reference rates, where the ECB's full-history file begins. */
export const FIRST_PUBLICATION_DAY = '1999-01-04';
/** Publication time of the day's rates (UTC): about 16:00 CET. */
const PUBLICATION_HOUR_UTC = 15;

/** Units per euro, roughly as published in late 2026; the ECB lists these 30 currencies in this order. */
const BASE_RATES: [string, number, number][] = [
  ['USD', 1.0842, 4],
  ['JPY', 163.21, 2],
  ['BGN', 1.9558, 4],
  ['CZK', 25.187, 3],
  ['DKK', 7.4601, 4],
  ['GBP', 0.8431, 5],
  ['HUF', 398.45, 2],
  ['PLN', 4.2795, 4],
  ['RON', 4.9763, 4],
  ['SEK', 11.2285, 4],
  ['CHF', 0.9412, 4],
  ['ISK', 146.9, 1],
  ['NOK', 11.6815, 4],
  ['TRY', 37.9876, 4],
  ['AUD', 1.6512, 4],
  ['BRL', 6.0391, 4],
  ['CAD', 1.5034, 4],
  ['CNY', 7.7823, 4],
  ['HKD', 8.4361, 4],
  ['IDR', 17263.55, 2],
  ['ILS', 4.0218, 4],
  ['INR', 91.4375, 4],
  ['KRW', 1512.36, 2],
  ['MXN', 20.8734, 4],
  ['MYR', 4.8923, 4],
  ['NZD', 1.8214, 4],
  ['PHP', 62.871, 3],
  ['SGD', 1.4467, 4],
  ['THB', 37.412, 3],
  ['ZAR', 19.6712, 4],
];

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
const isWeekday = (day: string) => ![0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());

/** A currency's rate on a day: its level with two slow waves (a few per cent over weeks), fixed per day. */
export function sandboxRate(currency: string, day: string): number | undefined {
  const entry = BASE_RATES.find(([code]) => code === currency);
  if (!entry) return undefined;
  const [code, level, decimals] = entry;
  // BGN is pegged to the euro.
  if (code === 'BGN') return level;
  const seed = [...code].reduce((sum, character) => sum + character.charCodeAt(0), 0);
  const n = dayNumber(day);
  const drift = 0.018 * Math.sin(n / 23 + seed) + 0.006 * Math.sin(n / 3.7 + seed * 1.3);
  return Number((level * (1 + drift)).toFixed(decimals));
}

/** The latest publication day at `now`: today once published, else the weekday before. */
export function latestPublicationDay(now: Date): string {
  let time = now.getTime();
  if (now.getUTCHours() < PUBLICATION_HOUR_UTC) time -= DAY_MS;
  while (!isWeekday(dayOf(time))) time -= DAY_MS;
  return dayOf(time);
}

function cube(day: string): string {
  const rates = BASE_RATES.map(([code]) => `\t\t\t<Cube currency='${code}' rate='${sandboxRate(code, day)}'/>`).join('\n');
  return `\t\t<Cube time='${day}'>\n${rates}\n\t\t</Cube>`;
}

/** The ECB's envelope around the given days' cubes, newest first. */
export function ecbXml(days: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
${days.map(cube).join('\n')}
\t</Cube>
</gesmes:Envelope>
`;
}

/** The publication days of the 90 calendar days up to the latest one, newest first. */
export function ninetyDays(now: Date): string[] {
  const latest = latestPublicationDay(now);
  const days: string[] = [];
  for (let n = 0; n < 90; n += 1) {
    const day = dayOf(Date.parse(`${latest}T00:00:00Z`) - n * DAY_MS);
    if (isWeekday(day)) days.push(day);
  }
  return days;
}

/** Every publication day from the first (1999-01-04) to the latest one, newest first: the full-history file. */
export function allPublicationDays(now: Date): string[] {
  const days: string[] = [];
  const first = Date.parse(`${FIRST_PUBLICATION_DAY}T00:00:00Z`);
  for (let time = Date.parse(`${latestPublicationDay(now)}T00:00:00Z`); time >= first; time -= DAY_MS) {
    const day = dayOf(time);
    if (isWeekday(day)) days.push(day);
  }
  return days;
}

export interface EcbSandbox {
  baseUrl: string;
  /** Paths requested, in order (tests). */
  calls: string[];
  close(): Promise<void>;
}

export async function startEcbSandbox(options: { now?: () => Date; host?: string } = {}): Promise<EcbSandbox> {
  const now = options.now ?? (() => new Date());
  const host = options.host ?? '127.0.0.1';
  const calls: string[] = [];
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    calls.push(path);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let body: string | undefined;
    if (path === DAILY_PATH) body = ecbXml([latestPublicationDay(now())]);
    else if (path === NINETY_DAYS_PATH) body = ecbXml(ninetyDays(now()));
    else if (path === HISTORY_PATH) body = ecbXml(allPublicationDays(now()));
    if (body === undefined) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/xml' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://${host}:${port}`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
