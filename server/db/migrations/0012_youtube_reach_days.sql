CREATE TABLE "youtube_video_reach" (
	"content_item_id" integer NOT NULL,
	"connection_id" integer NOT NULL,
	"date" date NOT NULL,
	"impressions" double precision NOT NULL,
	"clicks" double precision NOT NULL,
	CONSTRAINT "youtube_video_reach_content_item_id_date_pk" PRIMARY KEY("content_item_id","date")
);
--> statement-breakpoint
ALTER TABLE "youtube_channels" ADD COLUMN "reach_reports_created_through" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "youtube_video_reach" ADD CONSTRAINT "youtube_video_reach_content_item_id_content_items_id_fk" FOREIGN KEY ("content_item_id") REFERENCES "public"."content_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "youtube_video_reach" ADD CONSTRAINT "youtube_video_reach_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "youtube_video_reach_connection_date_idx" ON "youtube_video_reach" USING btree ("connection_id","date");--> statement-breakpoint
ALTER TABLE "youtube_channels" DROP COLUMN "reach_reports_through";
