CREATE TABLE "account_metrics" (
	"id" serial PRIMARY KEY NOT NULL,
	"connection_id" integer NOT NULL,
	"date" date NOT NULL,
	"metric_type" text NOT NULL,
	"value" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"connection_id" integer NOT NULL,
	"platform_content_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"published_at" timestamp with time zone,
	"url" text
);
--> statement-breakpoint
CREATE TABLE "content_metrics" (
	"id" serial PRIMARY KEY NOT NULL,
	"content_item_id" integer NOT NULL,
	"connection_id" integer NOT NULL,
	"metric_type" text NOT NULL,
	"as_of" date NOT NULL,
	"value" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_states" (
	"connection_id" integer PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'idle' NOT NULL,
	"message" text,
	"job_id" text,
	"lease_token" text,
	"lease_until" timestamp with time zone,
	"next_run_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"cursor" jsonb,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_metrics" ADD CONSTRAINT "account_metrics_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_metrics" ADD CONSTRAINT "content_metrics_content_item_id_content_items_id_fk" FOREIGN KEY ("content_item_id") REFERENCES "public"."content_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_metrics" ADD CONSTRAINT "content_metrics_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_states" ADD CONSTRAINT "sync_states_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_metrics_connection_date_type_key" ON "account_metrics" USING btree ("connection_id","date","metric_type");--> statement-breakpoint
CREATE INDEX "account_metrics_connection_type_date_idx" ON "account_metrics" USING btree ("connection_id","metric_type","date");--> statement-breakpoint
CREATE UNIQUE INDEX "content_items_connection_content_key" ON "content_items" USING btree ("connection_id","platform_content_id");--> statement-breakpoint
CREATE UNIQUE INDEX "content_metrics_item_type_day_key" ON "content_metrics" USING btree ("content_item_id","metric_type","as_of");--> statement-breakpoint
CREATE INDEX "content_metrics_connection_day_idx" ON "content_metrics" USING btree ("connection_id","as_of");