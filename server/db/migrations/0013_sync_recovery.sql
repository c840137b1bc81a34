CREATE TABLE "sync_dead_letters" (
	"id" serial PRIMARY KEY NOT NULL,
	"connection_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"platform" text NOT NULL,
	"job_id" text,
	"attempts" integer NOT NULL,
	"reason" text NOT NULL,
	"last_error" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "lease_owner" integer;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "last_failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_dead_letters" ADD CONSTRAINT "sync_dead_letters_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_dead_letters" ADD CONSTRAINT "sync_dead_letters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sync_dead_letters_connection_idx" ON "sync_dead_letters" USING btree ("connection_id","created_at");--> statement-breakpoint
-- A failed sync used to be retried at the next schedule tick; from now on 'failed' means stopped until the user acts.
-- Syncs that failed before this release get one more try under the new backoff instead of stopping unannounced.
UPDATE "sync_states" SET "status" = 'idle', "next_run_at" = NULL WHERE "status" = 'failed';--> statement-breakpoint
UPDATE "platform_connections" SET "sync_status" = 'idle' WHERE "sync_status" = 'failed' AND NOT "needs_reconnect";
