CREATE TABLE "analytics_cache" (
	"user_id" integer NOT NULL,
	"cache_key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "analytics_cache_user_id_cache_key_pk" PRIMARY KEY("user_id","cache_key")
);
--> statement-breakpoint
ALTER TABLE "analytics_cache" ADD CONSTRAINT "analytics_cache_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;