-- When a connection's grant stopped working (the platform refused or revoked it, or it expired beyond renewal): a
-- grant not renewed within 30 days has its connection's stored data deleted (docs/platforms/data-retention.md).
-- Connections that need reconnecting already are dated from their last update, the closest moment on record.
ALTER TABLE "platform_connections" ADD COLUMN "needs_reconnect_since" timestamp with time zone;--> statement-breakpoint
UPDATE "platform_connections" SET "needs_reconnect_since" = "updated_at" WHERE "needs_reconnect";--> statement-breakpoint
CREATE INDEX "platform_connections_needs_reconnect_since_idx" ON "platform_connections" USING btree ("needs_reconnect_since") WHERE "needs_reconnect";
