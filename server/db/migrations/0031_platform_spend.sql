-- What the product spent at a metered platform (X bills each resource read) in a calendar month (UTC), shared by
-- every process: the operator's monthly budget pauses the platform's refreshes once it is reached.
CREATE TABLE "platform_spend" (
	"platform" text NOT NULL,
	"month" date NOT NULL,
	"billed_reads" bigint DEFAULT 0 NOT NULL,
	"usd" double precision DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_spend_platform_month_pk" PRIMARY KEY("platform","month")
);
