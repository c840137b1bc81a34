-- One video against the median of the others is no longer an insight (issue 24, decision 025): a group of one. The
-- insights stored by earlier runs of that rule would stay on the panel until the creator generates again.
DELETE FROM "youtube_insights" WHERE "insight_type" IN ('click_through_rate', 'retention');
