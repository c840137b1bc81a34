CREATE TABLE "youtube_channel_traffic" (
	"connection_id" integer NOT NULL,
	"date" date NOT NULL,
	"source_type" text NOT NULL,
	"views" double precision NOT NULL,
	"watch_time_minutes" double precision,
	CONSTRAINT "youtube_channel_traffic_connection_id_date_source_type_pk" PRIMARY KEY("connection_id","date","source_type")
);
--> statement-breakpoint
CREATE TABLE "youtube_channels" (
	"connection_id" integer PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"title" text,
	"revenue_access" text NOT NULL,
	"reach_job_id" text,
	"reach_reports_through" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "youtube_demographics" (
	"connection_id" integer NOT NULL,
	"period_days" integer NOT NULL,
	"demographic_type" text NOT NULL,
	"demographic_value" text NOT NULL,
	"viewer_percentage" double precision NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	CONSTRAINT "youtube_demographics_connection_id_period_days_demographic_type_demographic_value_pk" PRIMARY KEY("connection_id","period_days","demographic_type","demographic_value")
);
--> statement-breakpoint
CREATE TABLE "youtube_insights" (
	"id" serial PRIMARY KEY NOT NULL,
	"connection_id" integer NOT NULL,
	"insight_type" text NOT NULL,
	"title" text NOT NULL,
	"recommendation" text NOT NULL,
	"confidence_score" double precision NOT NULL,
	"facts" jsonb NOT NULL,
	"video_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "youtube_video_traffic" (
	"content_item_id" integer NOT NULL,
	"source_type" text NOT NULL,
	"views" double precision NOT NULL,
	"watch_time_minutes" double precision,
	"as_of" timestamp with time zone NOT NULL,
	CONSTRAINT "youtube_video_traffic_content_item_id_source_type_pk" PRIMARY KEY("content_item_id","source_type")
);
--> statement-breakpoint
CREATE TABLE "youtube_videos" (
	"content_item_id" integer PRIMARY KEY NOT NULL,
	"connection_id" integer NOT NULL,
	"video_id" text NOT NULL,
	"duration_seconds" integer,
	"thumbnail_url" text,
	"views" double precision,
	"likes" double precision,
	"comments" double precision,
	"shares" double precision,
	"watch_time_minutes" double precision,
	"average_view_duration_seconds" double precision,
	"average_view_percentage" double precision,
	"subscribers_gained" double precision,
	"estimated_revenue" double precision,
	"estimated_ad_revenue" double precision,
	"cpm" double precision,
	"monetized_playbacks" double precision,
	"impressions" double precision,
	"click_through_rate" double precision,
	"retention" jsonb,
	"retention_fetched_at" timestamp with time zone,
	"early_views" jsonb,
	"early_views_complete" boolean DEFAULT false NOT NULL,
	"stats_updated_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "youtube_channel_traffic" ADD CONSTRAINT "youtube_channel_traffic_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "youtube_channels" ADD CONSTRAINT "youtube_channels_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "youtube_demographics" ADD CONSTRAINT "youtube_demographics_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "youtube_insights" ADD CONSTRAINT "youtube_insights_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "youtube_video_traffic" ADD CONSTRAINT "youtube_video_traffic_content_item_id_content_items_id_fk" FOREIGN KEY ("content_item_id") REFERENCES "public"."content_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "youtube_videos" ADD CONSTRAINT "youtube_videos_content_item_id_content_items_id_fk" FOREIGN KEY ("content_item_id") REFERENCES "public"."content_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "youtube_videos" ADD CONSTRAINT "youtube_videos_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "youtube_insights_connection_created_idx" ON "youtube_insights" USING btree ("connection_id","created_at");--> statement-breakpoint
CREATE INDEX "youtube_videos_connection_idx" ON "youtube_videos" USING btree ("connection_id");