-- X's `impression_count` was stored as views. X reports impressions ("times the post appeared on a user's screen"),
-- and views only for video media (docs/platforms/x.md, corrections row 9): every X views row stored so far is an
-- impressions row. Moved, not re-read (each read is billed); a day that somehow holds both keeps its impressions.
UPDATE "content_metrics" cm SET "metric_type" = 'impressions'
FROM "platform_connections" c
WHERE c."id" = cm."connection_id" AND c."platform" = 'twitter' AND cm."metric_type" = 'views'
	AND NOT EXISTS (SELECT 1 FROM "content_metrics" e WHERE e."content_item_id" = cm."content_item_id" AND e."as_of" = cm."as_of" AND e."metric_type" = 'impressions');--> statement-breakpoint
DELETE FROM "content_metrics" cm USING "platform_connections" c
WHERE c."id" = cm."connection_id" AND c."platform" = 'twitter' AND cm."metric_type" = 'views';--> statement-breakpoint
UPDATE "content_metric_reads" r SET "metric_type" = 'impressions'
FROM "content_items" ci JOIN "platform_connections" c ON c."id" = ci."connection_id"
WHERE ci."id" = r."content_item_id" AND c."platform" = 'twitter' AND r."metric_type" = 'views'
	AND NOT EXISTS (SELECT 1 FROM "content_metric_reads" e WHERE e."content_item_id" = r."content_item_id" AND e."read_at" = r."read_at" AND e."metric_type" = 'impressions');--> statement-breakpoint
DELETE FROM "content_metric_reads" r USING "content_items" ci, "platform_connections" c
WHERE ci."id" = r."content_item_id" AND c."id" = ci."connection_id" AND c."platform" = 'twitter' AND r."metric_type" = 'views';--> statement-breakpoint
-- The daily figures derived from those counters (migration 0024); account_metric_days follows by its triggers.
UPDATE "account_metrics" m SET "metric_type" = 'impressions'
FROM "platform_connections" c
WHERE c."id" = m."connection_id" AND c."platform" = 'twitter' AND m."metric_type" = 'views'
	AND NOT EXISTS (SELECT 1 FROM "account_metrics" e WHERE e."connection_id" = m."connection_id" AND e."date" = m."date" AND e."metric_type" = 'impressions');--> statement-breakpoint
DELETE FROM "account_metrics" m USING "platform_connections" c
WHERE c."id" = m."connection_id" AND c."platform" = 'twitter' AND m."metric_type" = 'views';--> statement-breakpoint
-- A new row version of each X connection: cached analytics answers (keyed by the data's fingerprint) are recomputed.
UPDATE "platform_connections" SET "updated_at" = "updated_at" WHERE "platform" = 'twitter';
