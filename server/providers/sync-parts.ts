// A sync read as a set of named parts (the profile, a window of days, one post's metrics, a report): a part the
// platform does not answer is recorded as missing and the rest goes on, so one refused call loses only itself. What
// stops the whole run is what no other part can escape (endsTheRun): the account is throttled, the grant is dead, or
// the creator must act. Those propagate, and the engine defers or stops the run (sync.service.ts describe()).
import { failureRuleOf } from './failure-rule.ts';
import { MALFORMED_RESPONSE } from './http-client.ts';
import { PlatformError, ReconnectRequired } from './platform-error.ts';
import type { MissingPart, ProviderContext } from './provider.ts';

/**
 * Whether this failure ends the whole run rather than the one part, by the one failure rule (failure-rule.ts): the
 * account is throttled, the grant is dead, only the creator can fix it (never retried blindly: the sync stops with
 * their action), or an answer we cannot read (the sync engine stops on it: our reading and the platform disagree).
 */
export function endsTheRun(error: unknown): boolean {
  if (error instanceof ReconnectRequired) return true;
  if (!(error instanceof PlatformError)) return false;
  const { rule } = failureRuleOf(error);
  return rule === 'reconnect' || rule === 'needs_creator' || error.kind === 'rate_limited' || error.details.errorCode === MALFORMED_RESPONSE;
}

/** Parts failed in a row before anything was read: the platform is not answering at all, and the run ends (retried whole). */
const FAILURES_BEFORE_OUTAGE = 3;

/** Why a part is missing, in our words with the platform's status and code (never its body, which can echo request values). */
export function missingReason(error: unknown): string {
  if (!(error instanceof PlatformError)) return 'an unexpected error occurred';
  const { status, errorCode } = error.details;
  const code = errorCode && errorCode !== MALFORMED_RESPONSE ? `, code ${errorCode}` : '';
  return `${error.message}${status ? ` (HTTP ${status}${code})` : ''}`;
}

/**
 * The parts of one run. `read(part, work)` answers the part's result, or undefined once it is recorded as missing;
 * `missing` lists them; `failedWhole()` says whether nothing at all was read, with the first failure (the run then
 * fails as before, rather than store an empty success).
 */
export function syncParts(context: Pick<ProviderContext, 'now' | 'logger'>) {
  const missing: MissingPart[] = [];
  let read = 0;
  let failures = 0;
  let firstFailure: unknown;
  return {
    missing,
    async read<T>(part: string, work: () => Promise<T>): Promise<T | undefined> {
      try {
        const result = await work();
        read += 1;
        return result;
      } catch (error) {
        if (!(error instanceof PlatformError) || endsTheRun(error)) throw error;
        // Data the platform does not have (skip_part): nothing to read again, the rest stands.
        if (failureRuleOf(error).rule === 'skip_part') return undefined;
        firstFailure ??= error;
        failures += 1;
        // Not one part answered: an outage, not a missing part; asking every other part would only fail as well.
        if (read === 0 && failures >= FAILURES_BEFORE_OUTAGE) throw firstFailure;
        // A part read in several calls (a history of days) is missing once.
        if (!missing.some((entry) => entry.part === part)) missing.push({ part, reason: missingReason(error), at: context.now().toISOString() });
        context.logger.warn({ part, reason: missingReason(error) }, 'a sync part could not be read; the rest goes on');
        return undefined;
      }
    },
    /** Throws the first failure when parts failed and none was read: nothing to store, the run failed whole. */
    throwIfNothingRead(): void {
      if (read === 0 && firstFailure !== undefined) throw firstFailure;
    },
  };
}

/** The previous run's missing parts whose name starts with `prefix`, with the rest of the name (e.g. a window's days). */
export function retriedParts(parts: readonly MissingPart[] | undefined, prefix: string): string[] {
  return (parts ?? []).filter((entry) => entry.part.startsWith(prefix)).map((entry) => entry.part.slice(prefix.length));
}
