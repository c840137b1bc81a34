CREATE TABLE "content_metric_reads" (
	"content_item_id" integer NOT NULL,
	"metric_type" text NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"value" double precision NOT NULL,
	CONSTRAINT "content_metric_reads_content_item_id_metric_type_read_at_pk" PRIMARY KEY("content_item_id","metric_type","read_at")
);
--> statement-breakpoint
CREATE TABLE "top_post_checks" (
	"connection_id" integer PRIMARY KEY NOT NULL,
	"checked_through" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "young_posts_read_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "url" text;--> statement-breakpoint
ALTER TABLE "content_metric_reads" ADD CONSTRAINT "content_metric_reads_content_item_id_content_items_id_fk" FOREIGN KEY ("content_item_id") REFERENCES "public"."content_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "top_post_checks" ADD CONSTRAINT "top_post_checks_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_metric_reads_read_at_idx" ON "content_metric_reads" USING btree ("read_at");