-- One row per connection and day that has account metrics: the day's figures the analytics screens sum (views,
-- impressions, engagements, revenue, follower totals) and how many metric rows the day holds. Read instead of
-- account_metrics by the range aggregations (a year is 365 rows per connection instead of ~5,000), and kept exact by
-- statement triggers on account_metrics, so every writer (syncs, derivations, migrations) keeps it true without
-- knowing of it. Definitions match server/modules/analytics/analytics.repository.ts (decision 027).
CREATE TABLE "account_metric_days" (
	"connection_id" integer NOT NULL,
	"date" date NOT NULL,
	"records" integer NOT NULL,
	"views" double precision,
	"impressions" double precision,
	"engagements" double precision,
	"revenue" double precision,
	"followers" double precision,
	-- Covering: a range of a connection's days is read from the index alone (index-only scan), not from one heap page
	-- per day (the days of a connection are written a sync at a time, so they lie scattered over the table).
	CONSTRAINT "account_metric_days_connection_id_date_pk" PRIMARY KEY("connection_id","date") INCLUDE ("records", "views", "impressions", "engagements", "revenue", "followers")
);--> statement-breakpoint
ALTER TABLE "account_metric_days" ADD CONSTRAINT "account_metric_days_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Recomputes the given (connection, day) pairs from account_metrics: a day's engagements are the platform's own
-- `engagements` where it reports them, else likes + reactions + comments + shares; followers are the sum of the
-- follower totals (followers, subscribers, patrons); a figure with no row that day is null, never 0.
CREATE FUNCTION "account_metric_days_refresh"("connection_ids" integer[], "days" date[]) RETURNS void LANGUAGE sql AS $$
	DELETE FROM account_metric_days d USING unnest(connection_ids, days) AS k(connection_id, date)
		WHERE d.connection_id = k.connection_id AND d.date = k.date;
	INSERT INTO account_metric_days (connection_id, date, records, views, impressions, engagements, revenue, followers)
	SELECT m.connection_id, m.date, count(*)::integer,
		sum(m.value) FILTER (WHERE m.metric_type = 'views'),
		sum(m.value) FILTER (WHERE m.metric_type = 'impressions'),
		coalesce(max(m.value) FILTER (WHERE m.metric_type = 'engagements'), sum(m.value) FILTER (WHERE m.metric_type IN ('likes', 'reactions', 'comments', 'shares'))),
		sum(m.value) FILTER (WHERE m.metric_type = 'revenue'),
		sum(m.value) FILTER (WHERE m.metric_type IN ('followers', 'subscribers', 'patrons'))
	FROM account_metrics m JOIN unnest(connection_ids, days) AS k(connection_id, date) ON m.connection_id = k.connection_id AND m.date = k.date
	GROUP BY m.connection_id, m.date;
$$;--> statement-breakpoint
CREATE FUNCTION "account_metric_days_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM account_metric_days_refresh(array_agg(k.connection_id), array_agg(k.date)) FROM (SELECT DISTINCT connection_id, date FROM new_rows) k;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "account_metric_days_after_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM account_metric_days_refresh(array_agg(k.connection_id), array_agg(k.date))
		FROM (SELECT connection_id, date FROM old_rows UNION SELECT connection_id, date FROM new_rows) k;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "account_metric_days_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM account_metric_days_refresh(array_agg(k.connection_id), array_agg(k.date)) FROM (SELECT DISTINCT connection_id, date FROM old_rows) k;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "account_metric_days_after_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM account_metric_days;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "account_metric_days_insert" AFTER INSERT ON "account_metrics" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_metric_days_after_insert();--> statement-breakpoint
CREATE TRIGGER "account_metric_days_update" AFTER UPDATE ON "account_metrics" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_metric_days_after_update();--> statement-breakpoint
CREATE TRIGGER "account_metric_days_delete" AFTER DELETE ON "account_metrics" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION account_metric_days_after_delete();--> statement-breakpoint
CREATE TRIGGER "account_metric_days_truncate" AFTER TRUNCATE ON "account_metrics" FOR EACH STATEMENT EXECUTE FUNCTION account_metric_days_after_truncate();--> statement-breakpoint
-- The days already stored, by the same function.
SELECT account_metric_days_refresh(array_agg(k.connection_id), array_agg(k.date)) FROM (SELECT DISTINCT connection_id, date FROM account_metrics) k;
