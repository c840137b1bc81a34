-- Patreon members and their joins and departures (the income view's new, churned and net patrons; patron conversion).
CREATE TABLE "patreon_members" (
	"connection_id" integer NOT NULL,
	"member_id" text NOT NULL,
	"patron_status" text,
	"paying" boolean NOT NULL,
	"monthly_amount_cents" integer DEFAULT 0 NOT NULL,
	"pledge_relationship_start" timestamp with time zone,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "patreon_members_connection_id_member_id_pk" PRIMARY KEY("connection_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "patreon_patron_events" (
	"connection_id" integer NOT NULL,
	"member_id" text NOT NULL,
	"occurred_on" date NOT NULL,
	"kind" text NOT NULL,
	"monthly_amount_cents" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "patreon_patron_events_connection_id_member_id_occurred_on_kind_pk" PRIMARY KEY("connection_id","member_id","occurred_on","kind"),
	CONSTRAINT "patreon_patron_events_kind_check" CHECK ("kind" in ('joined', 'left'))
);
--> statement-breakpoint
ALTER TABLE "patreon_members" ADD CONSTRAINT "patreon_members_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patreon_patron_events" ADD CONSTRAINT "patreon_patron_events_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patreon_patron_events_connection_day_idx" ON "patreon_patron_events" USING btree ("connection_id","occurred_on");
