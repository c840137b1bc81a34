-- A sync is a set of parts: the parts its last run could not read (retried soon, with backoff counted by
-- partial_runs), and a first sync's checkpoint (what it already read and kept), so a throttled or interrupted first
-- sync goes on from there instead of from zero.
ALTER TABLE "sync_states" ADD COLUMN "missing_parts" jsonb;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "partial_runs" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "checkpoint" jsonb;
