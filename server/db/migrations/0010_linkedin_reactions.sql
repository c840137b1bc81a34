-- LinkedIn's REACTION counts are reactions (like, celebrate, support, love, insightful, funny), not likes: stored
-- under their own name from now on, and the rows stored before under 'likes' are renamed to match.
UPDATE "account_metrics" SET "metric_type" = 'reactions'
WHERE "metric_type" = 'likes'
  AND "connection_id" IN (SELECT "id" FROM "platform_connections" WHERE "platform" = 'linkedin')
  AND NOT EXISTS (
    SELECT 1 FROM "account_metrics" "renamed"
    WHERE "renamed"."connection_id" = "account_metrics"."connection_id"
      AND "renamed"."date" = "account_metrics"."date"
      AND "renamed"."metric_type" = 'reactions'
  );
--> statement-breakpoint
DELETE FROM "account_metrics"
WHERE "metric_type" = 'likes'
  AND "connection_id" IN (SELECT "id" FROM "platform_connections" WHERE "platform" = 'linkedin');
