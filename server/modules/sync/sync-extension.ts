// The sync engine's one slot for what a platform keeps in tables of its own (YouTube's videos, traffic, demographics,
// retention, reach). The platform's feature registers an extension in the composition root (server/app.ts); the
// engine loads its state before the provider runs and stores its extra output in the run's transaction, without
// knowing which platform it is.
import type { PlatformName } from '#contract/platforms.ts';
import type { Executor } from '../../db/client.ts';

export interface SyncExtension<State = unknown, Extra = unknown> {
  /** What the platform's tables already hold, handed to the provider as `SyncInput.extraState`. */
  loadState(db: Executor, connectionId: number): Promise<State>;
  /** Stores `SyncOutput.extra` in the run's transaction; `contentIdOf` maps the platform's content ids to content_items ids. */
  store(tx: Executor, connectionId: number, extra: Extra, contentIdOf: ReadonlyMap<string, number>, now: Date): Promise<void>;
}

export type SyncExtensions = Partial<Record<PlatformName, SyncExtension>>;
