// Server tests inject platform refusals through the platform sandbox's fault injector over HTTP, exactly as a tester
// would (POST /_sandbox/faults): a fault answers the next matching calls instead of the platform's real handler.
import type { Fault } from '../../sandbox/platforms/platform-sandbox.ts';
import { platformSandboxOf } from './platforms.ts';
import type { TestServer } from './test-server.ts';

export interface FaultInput {
  platform: Fault['platform'];
  method?: string;
  host?: string;
  /** A path prefix matched by whole segments, `*` matching within one segment: `/v25.0/*\/insights`. */
  path: string;
  query?: Record<string, string>;
  status: number;
  /** An object or array is sent as JSON; a string as it is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Default 1; 'always' (or null) until cleared. */
  times?: number | 'always' | null;
}

type SandboxTarget = TestServer | string;

const faultsUrl = (target: SandboxTarget) => `${typeof target === 'string' ? target.replace(/\/+$/, '') : platformSandboxOf(target).baseUrl}/_sandbox/faults`;

/** Adds a fault to the platform sandbox of `target` (a test server started with platforms, or the sandbox's base URL). */
export async function injectFault(target: SandboxTarget, fault: FaultInput): Promise<Fault> {
  const response = await fetch(faultsUrl(target), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fault) });
  const answer = (await response.json()) as Fault | { message: string };
  if (response.status !== 201) throw new Error(`the sandbox refused the fault: ${response.status} ${'message' in answer ? answer.message : ''}`);
  return answer as Fault;
}

/** The active faults, and those that ran out, with how often each fired. */
export async function listFaults(target: SandboxTarget): Promise<{ faults: Fault[]; spent: Fault[] }> {
  return (await (await fetch(faultsUrl(target))).json()) as { faults: Fault[]; spent: Fault[] };
}

export async function clearFaults(target: SandboxTarget): Promise<void> {
  const response = await fetch(faultsUrl(target), { method: 'DELETE' });
  if (response.status !== 200) throw new Error(`clearing the sandbox's faults answered ${response.status}`);
}
