// The fault injector: a tester (or a server test, over HTTP) tells the sandbox that the next matching requests to a
// platform answer a given status, body and headers instead of the real handler. It exists so that any refusal a
// platform documents (a 403 with its own body, a throttle with its own headers, a 503) can be produced on any one
// sub-call of a sync, without a switch per case in every platform file.
//
// A faulted request never reaches the handler, so nothing is charged (YouTube's quota units, X's billed reads):
// a refused call is not billed. It is still a request the platform received, so it stays in the call log.
import { PLATFORM_NAMES, type PlatformName } from './demo-accounts.ts';
import type { Reply } from './http.ts';

export interface Fault {
  id: string;
  platform: PlatformName;
  /** Upper-case HTTP method, or null for any. */
  method: string | null;
  /** One of the platform's hosts, or null for any. */
  host: string | null;
  /** A path prefix matched by whole segments; `*` in a segment matches any characters but `/`. */
  path: string;
  /** Query parameters the request must carry with exactly these values (`*`: with any value), or null. */
  query: Record<string, string> | null;
  status: number;
  body: string;
  headers: Record<string, string>;
  /** How many more requests it answers before it expires; null: until cleared. */
  remaining: number | null;
  /** How many requests it has answered. */
  fired: number;
  createdAt: string;
}

export type FaultRequest = { platform: PlatformName; method: string; host: string; path: string; query: URLSearchParams };

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];
const FIELDS = new Set(['platform', 'method', 'host', 'path', 'query', 'status', 'body', 'headers', 'times']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const MAX_TIMES = 1_000_000;
const MAX_FAULTS = 200;

export class FaultInputError extends Error {}

function segments(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

function segmentMatcher(pattern: string): (segment: string) => boolean {
  if (!pattern.includes('*')) return (segment) => segment === pattern;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');
  const regex = new RegExp(`^${source}$`);
  return (segment) => regex.test(segment);
}

/** Whether `path` starts with `pattern`, segment by segment (`/v2/video` matches `/v2/video/list/`, not `/v2/videos`). */
export function pathMatches(pattern: string, path: string): boolean {
  const wanted = segments(pattern);
  const actual = segments(path);
  if (wanted.length > actual.length) return false;
  return wanted.every((segment, index) => segmentMatcher(segment)(actual[index]!));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringRecord(value: unknown, field: string): Record<string, string> {
  if (!isRecord(value)) throw new FaultInputError(`"${field}" must be an object of strings.`);
  const result: Record<string, string> = {};
  for (const [name, entry] of Object.entries(value)) {
    if (typeof entry !== 'string') throw new FaultInputError(`"${field}.${name}" must be a string.`);
    result[name] = entry;
  }
  return result;
}

/** Validates a `POST /_sandbox/faults` body; throws FaultInputError with a message a tester can act on. */
export function parseFault(input: unknown, hostsOf: (platform: PlatformName) => readonly string[], id: string, now: Date): Fault {
  if (!isRecord(input)) throw new FaultInputError('The body must be a JSON object: {platform, method?, host?, path, query?, status, body?, headers?, times?}.');
  const unknown = Object.keys(input).filter((field) => !FIELDS.has(field));
  if (unknown.length > 0) throw new FaultInputError(`Unknown field(s): ${unknown.join(', ')}. Allowed: ${[...FIELDS].join(', ')}.`);

  const { platform, method, host, path, query, status, body, headers, times } = input;
  if (typeof platform !== 'string' || !PLATFORM_NAMES.includes(platform as PlatformName)) throw new FaultInputError(`"platform" must be one of ${PLATFORM_NAMES.join(', ')}.`);
  const platformName = platform as PlatformName;

  if (method !== undefined && method !== null && (typeof method !== 'string' || !METHODS.includes(method.toUpperCase()))) {
    throw new FaultInputError(`"method" must be one of ${METHODS.join(', ')}, or left out for any.`);
  }
  const hosts = hostsOf(platformName);
  if (host !== undefined && host !== null && (typeof host !== 'string' || !hosts.includes(host.toLowerCase()))) {
    throw new FaultInputError(`"host" must be one of ${platformName}'s hosts (${hosts.join(', ')}), or left out for any.`);
  }
  if (typeof path !== 'string' || !path.startsWith('/') || path.length > 500 || /[?#\s]/.test(path)) {
    throw new FaultInputError('"path" must be a path starting with "/" (a prefix, or a pattern such as "/v25.0/*/insights"), without a query.');
  }
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) throw new FaultInputError('"status" must be an integer HTTP status from 200 to 599.');

  const answerHeaders = headers === undefined || headers === null ? {} : stringRecord(headers, 'headers');
  for (const name of Object.keys(answerHeaders)) {
    if (!HEADER_NAME.test(name)) throw new FaultInputError(`"headers" has an invalid header name: ${JSON.stringify(name)}.`);
    if (/[\r\n]/.test(answerHeaders[name]!)) throw new FaultInputError(`"headers.${name}" must not contain line breaks.`);
  }
  const lowerHeaders = Object.fromEntries(Object.entries(answerHeaders).map(([name, value]) => [name.toLowerCase(), value]));

  let answerBody = '';
  if (typeof body === 'string') {
    answerBody = body;
    lowerHeaders['content-type'] ??= looksLikeJson(body) ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8';
  } else if (body !== undefined && body !== null) {
    answerBody = JSON.stringify(body);
    lowerHeaders['content-type'] ??= 'application/json; charset=utf-8';
  }

  let remaining: number | null;
  if (times === undefined) remaining = 1;
  else if (times === null || times === 'always') remaining = null;
  else if (typeof times === 'number' && Number.isInteger(times) && times >= 1 && times <= MAX_TIMES) remaining = times;
  else throw new FaultInputError(`"times" must be a whole number from 1 to ${MAX_TIMES}, "always" or null (until cleared); default 1.`);

  return {
    id,
    platform: platformName,
    method: typeof method === 'string' ? method.toUpperCase() : null,
    host: typeof host === 'string' ? host.toLowerCase() : null,
    path,
    query: query === undefined || query === null ? null : stringRecord(query, 'query'),
    status,
    body: answerBody,
    headers: lowerHeaders,
    remaining,
    fired: 0,
    createdAt: now.toISOString(),
  };
}

function looksLikeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The active faults, first added first matched, and those that ran out (until cleared), so a tester sees what fired. */
export class FaultBook {
  private readonly active: Fault[] = [];
  private readonly spent: Fault[] = [];
  private nextId = 1;

  constructor(
    private readonly hostsOf: (platform: PlatformName) => readonly string[],
    private readonly now: () => Date,
  ) {}

  add(input: unknown): Fault {
    if (this.active.length >= MAX_FAULTS) throw new FaultInputError(`At most ${MAX_FAULTS} faults may be active; DELETE /_sandbox/faults clears them.`);
    const fault = parseFault(input, this.hostsOf, `fault-${this.nextId}`, this.now());
    this.nextId += 1;
    this.active.push(fault);
    return fault;
  }

  list(): { faults: Fault[]; spent: Fault[] } {
    return { faults: this.active.map((fault) => ({ ...fault })), spent: this.spent.map((fault) => ({ ...fault })) };
  }

  /** Removes every fault, active and spent; answers how many were active. */
  clear(): number {
    const count = this.active.length;
    this.active.length = 0;
    this.spent.length = 0;
    return count;
  }

  remove(id: string): boolean {
    for (const list of [this.active, this.spent]) {
      const index = list.findIndex((fault) => fault.id === id);
      if (index >= 0) {
        list.splice(index, 1);
        return true;
      }
    }
    return false;
  }

  /** The first active fault matching the request, counted as fired (and moved to spent when it runs out). */
  take(request: FaultRequest): Fault | undefined {
    const index = this.active.findIndex((fault) => matches(fault, request));
    if (index < 0) return undefined;
    const fault = this.active[index]!;
    fault.fired += 1;
    if (fault.remaining !== null) {
      fault.remaining -= 1;
      if (fault.remaining === 0) {
        this.active.splice(index, 1);
        this.spent.push(fault);
      }
    }
    return fault;
  }
}

function matches(fault: Fault, request: FaultRequest): boolean {
  if (fault.platform !== request.platform) return false;
  if (fault.method !== null && fault.method !== request.method) return false;
  if (fault.host !== null && fault.host !== request.host) return false;
  if (!pathMatches(fault.path, request.path)) return false;
  if (fault.query) {
    for (const [name, value] of Object.entries(fault.query)) {
      const actual = request.query.get(name);
      if (actual === null || (value !== '*' && actual !== value)) return false;
    }
  }
  return true;
}

export function faultReply(fault: Fault): Reply {
  return { status: fault.status, headers: { 'cache-control': 'no-store', ...fault.headers }, body: fault.body };
}
