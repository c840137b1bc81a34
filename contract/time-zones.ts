// The account's one time zone (issue 25): reports, best times and dates are all read in it. Names are IANA's current
// ones: the runtimes' ICU still resolves and lists some zones under names IANA has retired (Asia/Calcutta for
// Asia/Kolkata), so those are mapped here, on the server (what is stored) and in the browser (what is offered).
import { z } from 'zod';

/** Retired IANA names → current ones (IANA's `backward` file), for the zones the runtimes still list or resolve to. */
export const LEGACY_TIME_ZONES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/** True for an IANA time zone the runtime knows (both Node and browsers implement this through Intl). */
export function isValidTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * The current IANA name of a zone the runtime knows, in IANA's spelling: "europe/paris" → "Europe/Paris",
 * "Asia/Calcutta" → "Asia/Kolkata". Undefined for a name that is no time zone.
 */
export function canonicalTimeZone(value: string): string | undefined {
  if (!isValidTimeZone(value)) return undefined;
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  return LEGACY_TIME_ZONES[resolved] ?? resolved;
}

/** A time zone in a request: any name the runtime knows (a retired alias too), stored and answered by its current name. */
export const timeZone = z
  .string({ error: 'Time zone is required' })
  .trim()
  .min(1, 'Time zone is required')
  .max(64, 'Time zone is too long')
  .refine(isValidTimeZone, 'Unknown time zone: choose one from the list, or type an IANA name such as Europe/Paris')
  .transform((value) => canonicalTimeZone(value)!);
