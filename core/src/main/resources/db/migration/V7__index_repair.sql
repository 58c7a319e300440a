-- Consolidation and quotas write the index after their PostgreSQL commits, and a reindex switches
-- the alias before its last catch-up: a run that fails in between can leave the index behind
-- PostgreSQL. The next run writes again, from their rows, the memories changed while a failed run
-- ran, then records it here, so each failed run is repaired once.
alter table maintenance_runs add column index_repaired_at timestamptz;
