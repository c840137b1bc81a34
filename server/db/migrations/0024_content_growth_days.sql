-- TikTok and X give each post's lifetime counters only (views, likes, comments, shares), never a day's figure for the
-- account. A day's figure is derived from the counters we read (issue 24):
--   * the growth of each post's counter since our previous reading of that post, counted on the day of the reading
--     (a day we did not read holds nothing: a gap of days puts its growth on the next reading's day);
--   * what a post had already gathered when we first read it, counted on the day it was published (the day of that
--     reading when the publish time is unknown or later), since we cannot know on which days before it came;
--   * a counter the platform corrected downwards adds nothing.
-- A day is null when it had neither a reading nor a post first read that was published on it; a day we read on which
-- nothing grew is a true 0. content_growth_refresh recomputes the given days of one connection whole, so a re-run
-- gives the same numbers (an upsert); the sync engine calls it with the day of its reading and the publish days of
-- the posts first read then (server/modules/sync/sync.repository.ts).
CREATE FUNCTION "content_growth_refresh"("target_connection" integer, "target_days" date[], "metric_types" text[]) RETURNS integer LANGUAGE sql AS $$
	WITH stored AS (
		INSERT INTO account_metrics (connection_id, date, metric_type, value)
		SELECT target_connection, g.date, g.metric_type, sum(g.gain)::float8
		FROM (
			SELECT r.as_of AS date, r.metric_type, greatest(r.value - p.value, 0) AS gain
			FROM content_metrics r
			CROSS JOIN LATERAL (
				SELECT e.value FROM content_metrics e
				WHERE e.content_item_id = r.content_item_id AND e.metric_type = r.metric_type AND e.as_of < r.as_of
				ORDER BY e.as_of DESC LIMIT 1
			) p
			WHERE r.connection_id = target_connection AND r.as_of = ANY(target_days) AND r.metric_type = ANY(metric_types)
			UNION ALL
			SELECT f.date, f.metric_type, f.value AS gain
			FROM content_items ci
			CROSS JOIN LATERAL (
				SELECT DISTINCT ON (e.metric_type) e.metric_type, e.value,
					least(coalesce((ci.published_at AT TIME ZONE 'UTC')::date, e.as_of), e.as_of) AS date
				FROM content_metrics e
				WHERE e.content_item_id = ci.id AND e.metric_type = ANY(metric_types)
				ORDER BY e.metric_type, e.as_of
			) f
			WHERE ci.connection_id = target_connection AND f.date = ANY(target_days)
				AND (ci.published_at IS NULL OR (ci.published_at AT TIME ZONE 'UTC')::date >= (SELECT min(d) FROM unnest(target_days) AS d))
		) g
		GROUP BY g.date, g.metric_type
		ON CONFLICT (connection_id, date, metric_type) DO UPDATE SET value = excluded.value
		RETURNING 1
	)
	SELECT count(*)::integer FROM stored;
$$;--> statement-breakpoint
-- The days already stored, by the same function: every day a TikTok or X connection was read, and every publish day
-- of its posts (the first sync of each stored nothing before, issue 24).
SELECT content_growth_refresh(c.id, d.days, ARRAY['views', 'likes', 'comments', 'shares'])
FROM platform_connections c
CROSS JOIN LATERAL (
	SELECT array_agg(DISTINCT u.day) AS days FROM (
		SELECT cm.as_of AS day FROM content_metrics cm WHERE cm.connection_id = c.id
		UNION SELECT (ci.published_at AT TIME ZONE 'UTC')::date FROM content_items ci WHERE ci.connection_id = c.id AND ci.published_at IS NOT NULL
	) u
) d
WHERE c.platform IN ('tiktok', 'twitter') AND d.days IS NOT NULL;
