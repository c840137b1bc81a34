-- Which metric types each connection holds, and the first and last day of each: the facts the read path needs about a
-- connection's history (the metric-type list, each figure's coverage for the comparisons), kept when a sync writes
-- rather than found on every read by scanning the history (a distinct over every metric row grew with the years
-- held; a first day with views on a platform that has none read every day of the connection). Kept exact by
-- statement triggers on account_metrics and content_metrics, as account_metric_days is (migration 0022), so every
-- writer keeps it true without knowing of it. `source`: 'account' (account_metrics, by date) or 'content'
-- (content_metrics, by as_of).
CREATE TABLE "metric_spans" (
	"connection_id" integer NOT NULL,
	"source" text NOT NULL,
	"metric_type" text NOT NULL,
	"first_day" date NOT NULL,
	"last_day" date NOT NULL,
	CONSTRAINT "metric_spans_connection_id_source_metric_type_pk" PRIMARY KEY("connection_id","source","metric_type")
);--> statement-breakpoint
ALTER TABLE "metric_spans" ADD CONSTRAINT "metric_spans_connection_id_platform_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."platform_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Written rows widen a span: one upsert per (connection, type) of the statement.
CREATE FUNCTION "metric_spans_after_account_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO metric_spans (connection_id, source, metric_type, first_day, last_day)
		SELECT connection_id, 'account', metric_type, min(date), max(date) FROM new_rows GROUP BY connection_id, metric_type
		ON CONFLICT (connection_id, source, metric_type) DO UPDATE
			SET first_day = least(metric_spans.first_day, excluded.first_day), last_day = greatest(metric_spans.last_day, excluded.last_day);
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "metric_spans_after_content_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO metric_spans (connection_id, source, metric_type, first_day, last_day)
		SELECT connection_id, 'content', metric_type, min(as_of), max(as_of) FROM new_rows GROUP BY connection_id, metric_type
		ON CONFLICT (connection_id, source, metric_type) DO UPDATE
			SET first_day = least(metric_spans.first_day, excluded.first_day), last_day = greatest(metric_spans.last_day, excluded.last_day);
	RETURN NULL;
END $$;--> statement-breakpoint
-- Removed or changed rows can narrow a span: the affected (connection, type) pairs are recomputed from the table
-- itself. Account spans are two lookups on the (connection_id, metric_type, date) index; content rows have no such
-- index, but they are deleted only with their item or connection (retention, disconnect), seldom.
CREATE FUNCTION "metric_spans_refresh"("span_source" text, "connection_ids" integer[], "metric_types" text[]) RETURNS void LANGUAGE sql AS $$
	DELETE FROM metric_spans s USING unnest(connection_ids, metric_types) AS k(connection_id, metric_type)
		WHERE s.connection_id = k.connection_id AND s.source = span_source AND s.metric_type = k.metric_type;
	INSERT INTO metric_spans (connection_id, source, metric_type, first_day, last_day)
		SELECT k.connection_id, span_source, k.metric_type, f.first_day, f.last_day
		FROM (SELECT DISTINCT * FROM unnest(connection_ids, metric_types) AS u(connection_id, metric_type)) k
		CROSS JOIN LATERAL (
			SELECT CASE WHEN span_source = 'account'
					THEN (SELECT min(m.date) FROM account_metrics m WHERE m.connection_id = k.connection_id AND m.metric_type = k.metric_type)
					ELSE (SELECT min(cm.as_of) FROM content_metrics cm WHERE cm.connection_id = k.connection_id AND cm.metric_type = k.metric_type) END AS first_day,
				CASE WHEN span_source = 'account'
					THEN (SELECT max(m.date) FROM account_metrics m WHERE m.connection_id = k.connection_id AND m.metric_type = k.metric_type)
					ELSE (SELECT max(cm.as_of) FROM content_metrics cm WHERE cm.connection_id = k.connection_id AND cm.metric_type = k.metric_type) END AS last_day
		) f
		WHERE f.first_day IS NOT NULL
		ON CONFLICT (connection_id, source, metric_type) DO UPDATE SET first_day = excluded.first_day, last_day = excluded.last_day;
$$;--> statement-breakpoint
-- TG_ARGV[0]: the source the table's rows are ('account' or 'content'); both tables name the pair alike.
CREATE FUNCTION "metric_spans_after_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		PERFORM metric_spans_refresh(TG_ARGV[0], array_agg(k.connection_id), array_agg(k.metric_type))
			FROM (SELECT connection_id, metric_type FROM old_rows UNION SELECT connection_id, metric_type FROM new_rows) k;
	ELSE
		PERFORM metric_spans_refresh(TG_ARGV[0], array_agg(k.connection_id), array_agg(k.metric_type))
			FROM (SELECT DISTINCT connection_id, metric_type FROM old_rows) k;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "metric_spans_after_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM metric_spans WHERE source = TG_ARGV[0];
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "metric_spans_account_insert" AFTER INSERT ON "account_metrics" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION metric_spans_after_account_insert();--> statement-breakpoint
CREATE TRIGGER "metric_spans_account_update" AFTER UPDATE ON "account_metrics" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION metric_spans_after_change('account');--> statement-breakpoint
CREATE TRIGGER "metric_spans_account_delete" AFTER DELETE ON "account_metrics" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION metric_spans_after_change('account');--> statement-breakpoint
CREATE TRIGGER "metric_spans_account_truncate" AFTER TRUNCATE ON "account_metrics" FOR EACH STATEMENT EXECUTE FUNCTION metric_spans_after_truncate('account');--> statement-breakpoint
CREATE TRIGGER "metric_spans_content_insert" AFTER INSERT ON "content_metrics" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION metric_spans_after_content_insert();--> statement-breakpoint
CREATE TRIGGER "metric_spans_content_update" AFTER UPDATE ON "content_metrics" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION metric_spans_after_change('content');--> statement-breakpoint
CREATE TRIGGER "metric_spans_content_delete" AFTER DELETE ON "content_metrics" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION metric_spans_after_change('content');--> statement-breakpoint
CREATE TRIGGER "metric_spans_content_truncate" AFTER TRUNCATE ON "content_metrics" FOR EACH STATEMENT EXECUTE FUNCTION metric_spans_after_truncate('content');--> statement-breakpoint
INSERT INTO metric_spans (connection_id, source, metric_type, first_day, last_day)
	SELECT connection_id, 'account', metric_type, min(date), max(date) FROM account_metrics GROUP BY connection_id, metric_type;--> statement-breakpoint
INSERT INTO metric_spans (connection_id, source, metric_type, first_day, last_day)
	SELECT connection_id, 'content', metric_type, min(as_of), max(as_of) FROM content_metrics GROUP BY connection_id, metric_type;
