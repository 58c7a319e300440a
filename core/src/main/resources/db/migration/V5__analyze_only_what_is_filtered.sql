-- Recall bookkeeping updates usage_count and last_accessed_at of every memory it returns, so under
-- recall load autovacuum re-analyzes memories about once a minute. Part of each ANALYZE went to
-- statistics nothing uses (on 100k memories with small metadata objects: 400 ms, 200 ms without
-- them; with empty metadata the gain is small): no query filters, joins or sorts on content or
-- source_turn_ids, and metadata is only filtered together with a list of ids or one user's scope,
-- whose indexes decide the plan whatever its statistics.
-- Statistics target 0 leaves the three out of ANALYZE; every other column keeps its statistics.
alter table memories
    alter column content set statistics 0,
    alter column metadata set statistics 0,
    alter column source_turn_ids set statistics 0;
