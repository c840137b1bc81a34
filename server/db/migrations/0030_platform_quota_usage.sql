-- Platform quota spent per day and bucket (YouTube's Data API: the general bucket and search.list's own), counted by
-- the adapter at each call so that every server process reads the same day's spend (the scheduler's quota sharing).
CREATE TABLE "platform_quota_usage" (
	"platform" text NOT NULL,
	"bucket" text NOT NULL,
	"day" date NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "platform_quota_usage_platform_bucket_day_pk" PRIMARY KEY("platform","bucket","day")
);
