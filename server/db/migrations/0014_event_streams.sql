CREATE TABLE "event_streams" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"session_id" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_streams" ADD CONSTRAINT "event_streams_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_streams" ADD CONSTRAINT "event_streams_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_streams_user_idx" ON "event_streams" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "event_streams_session_idx" ON "event_streams" USING btree ("session_id");
--> statement-breakpoint
-- Hand-written (drizzle-kit does not model triggers): a stream's row going away, whatever removed it (its session
-- ending, the account's deletion, the stream closing itself), tells the process holding the stream to close it.
-- The channel and payload are those of server/lib/event-bus.ts.
CREATE FUNCTION "event_streams_notify_end"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('analytics_hub_events', json_build_object('userId', OLD.user_id, 'kind', 'stream-ended', 'streamId', OLD.id)::text);
	RETURN OLD;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "event_streams_notify_end" AFTER DELETE ON "event_streams" FOR EACH ROW EXECUTE FUNCTION "event_streams_notify_end"();
