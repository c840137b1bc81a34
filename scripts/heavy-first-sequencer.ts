// Vitest's file order: the longest files first, so the run does not end on one long file while the other workers
// sit idle (issue 26: on a fresh clone the server's run ended on a 42 s file alone, and its three longest files were
// among the last to start). Vitest orders by the durations it cached from the last run, and without a cache (a fresh
// clone, CI) by file size, which says little about time: a 40-line test that syncs every demo account is among the
// longest. So when the cache does not know every file of a project, the weights below (seconds on PGlite, two workers,
// measured with `vitest run --project server --reporter=json`) order the files they name first, longest first; the rest
// follow in Vitest's own order. A weight that has drifted only changes the order, never what runs.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SECONDS: Record<string, number> = {
  'server/modules/youtube/insights/top-decile-chance.test.ts': 54,
  'server/modules/sync/sync.test.ts': 48,
  'server/modules/sync/platform-costs.test.ts': 46,
  'server/main.test.ts': 45,
  'server/modules/sync/demo-accounts.test.ts': 42,
  'server/main.crash.test.ts': 29,
  'server/modules/sync/throttle-signals.test.ts': 27,
  'server/providers/youtube/sync.test.ts': 26,
  'server/modules/platforms/platforms.security.test.ts': 24,
  'server/modules/sync/young-posts.test.ts': 23,
  'server/plugins/fuzz.test.ts': 21,
  'server/modules/accounts/accounts.test.ts': 21,
  'server/modules/exports/exports-memory.test.ts': 19,
  'server/modules/reports/reports.test.ts': 18,
  'server/modules/billing/billing.webhook.test.ts': 17,
  'server/modules/platforms/platforms.flow.test.ts': 17,
  'server/modules/settings/settings.test.ts': 17,
  'server/modules/billing/billing.routes.test.ts': 15,
  'server/modules/events/events.test.ts': 14,
  'server/modules/sync/sync-retries.test.ts': 12,
  'server/plugins/metrics.test.ts': 11,
  'server/modules/analytics/best-times.demo.test.ts': 11,
  'server/modules/api-tokens/api-tokens.test.ts': 11,
  'server/modules/analytics/what-changed.demo.test.ts': 8,
  'server/modules/income/income.demo.test.ts': 8,
  'server/test/test-server.test.ts': 7,
  'server/modules/income/patreon-history.test.ts': 7,
  'server/modules/sync/content-growth.test.ts': 7,
  'server/modules/sync/sync-recovery.test.ts': 7,
};

export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const root = this.ctx.config.root;
    const relativePath = (file: TestSpecification) => file.moduleId.slice(root.length + 1);
    const cached = (file: TestSpecification) => this.ctx.cache.getFileTestResults(`${file.project.name}:${relativePath(file)}`) !== undefined;
    const projectsCached = new Map<string, boolean>();
    for (const file of ordered) projectsCached.set(file.project.name, (projectsCached.get(file.project.name) ?? true) && cached(file));
    const position = new Map(ordered.map((file, index) => [file, index]));
    // Stable: projects keep Vitest's order, and within a project the cache's order stands when it knows every file.
    return ordered.toSorted((a, b) => {
      if (a.project.name !== b.project.name || projectsCached.get(a.project.name)) return position.get(a)! - position.get(b)!;
      return (SECONDS[relativePath(b)] ?? 0) - (SECONDS[relativePath(a)] ?? 0) || position.get(a)! - position.get(b)!;
    });
  }
}
