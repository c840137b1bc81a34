import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The range the system takes ports for outgoing connections from (Linux: ip_local_port_range; 32768–60999 by
 * default), where a listen on port 0 also lands.
 */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high && low <= high) return [low, high];
  } catch {
    // Not Linux: the IANA dynamic range.
  }
  return [49152, 65535];
}

/** Ports below the ephemeral range that no well-known service here uses (PostgreSQL 5432, the app's 3000, …). */
const FIRST_CANDIDATE = 20_000;

function tryListen(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/**
 * A port that is free right now, for a server whose address someone else must know before it listens (a process
 * started with PORT, the Stripe sandbox's webhook target in server/main.ts). It is picked at random below the ephemeral
 * range: a port probed free there (listen on port 0) could be taken by any outgoing connection, a database client's
 * or a fetch's, before the server listens (a CI run failed on EADDRINUSE that way). Below the range only another
 * caller of this function can take it meanwhile, one chance in some ten thousand.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const [low] = ephemeralRange();
  const last = Math.max(FIRST_CANDIDATE + 1_000, low - 1);
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = randomInt(FIRST_CANDIDATE, last + 1);
    if (await tryListen(port, host)) return port;
  }
  throw new Error(`no free port found between ${FIRST_CANDIDATE} and ${last}`);
}
