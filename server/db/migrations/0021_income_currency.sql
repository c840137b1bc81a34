-- The income view: the user's display currency, and the ECB reference rates it converts with (decision 023).
ALTER TABLE "users" ADD COLUMN "display_currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
CREATE TABLE "exchange_rates" (
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"per_euro" double precision NOT NULL,
	"source" text NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "exchange_rates_currency_day_pk" PRIMARY KEY("currency","day"),
	CONSTRAINT "exchange_rates_per_euro_check" CHECK ("per_euro" > 0)
);
