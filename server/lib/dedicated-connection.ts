// A PostgreSQL connection of its own, kept open for as long as the process wants it: for what a pooled connection
// cannot hold (LISTEN, a session-level advisory lock). When it fails or ends it is opened again, waiting 1 s
// doubling to 30 s between tries, and set up afresh. Used by the live-event bus and the worker presence lock.
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

const RECONNECT_MIN_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;

export interface DedicatedConnectionOptions {
  url: string;
  logger: FastifyBaseLogger;
  /** What holds it, for the log lines ('live events', 'worker presence'). */
  what: string;
  /** Added to its log lines. */
  logContext?: Record<string, unknown>;
  /** Shown in pg_stat_activity. */
  applicationName?: string;
  /** Runs on every new connection before it counts as open (LISTEN, take a lock, attach listeners). */
  setUp(client: pg.Client): Promise<void>;
  /** After every opening; `again` is true after a gap (what happened meanwhile was missed). */
  onOpened?(again: boolean): void;
}

/** Opens the connection (rejecting when the first opening fails) and answers how to close it for good. */
export async function holdDedicatedConnection({ url, logger, what, logContext = {}, applicationName, setUp, onOpened }: DedicatedConnectionOptions): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let wait = RECONNECT_MIN_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let everOpened = false;
  let closed = false;

  async function open(): Promise<void> {
    const next = new pg.Client({ connectionString: url, ...(applicationName ? { application_name: applicationName } : {}) });
    next.on('error', (error) => {
      logger.warn({ err: error, ...logContext }, `${what}: the connection failed; reconnecting`);
      dropped(next);
    });
    next.on('end', () => dropped(next));
    try {
      await next.connect();
      await setUp(next);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    client = next;
    wait = RECONNECT_MIN_MS;
    onOpened?.(everOpened);
    everOpened = true;
  }

  function scheduleReopen() {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      open().catch((error: unknown) => {
        logger.warn({ err: error, ...logContext }, `${what}: reconnecting failed`);
        wait = Math.min(wait * 2, RECONNECT_MAX_MS);
        scheduleReopen();
      });
    }, wait);
    timer.unref();
  }

  function dropped(failed: pg.Client) {
    if (client !== failed) return;
    client = undefined;
    failed.end().catch(() => {});
    scheduleReopen();
  }

  await open();
  return async () => {
    closed = true;
    if (timer) clearTimeout(timer);
    const current = client;
    client = undefined;
    await current?.end().catch(() => {});
  };
}
