-- Maintenance jobs: the usage percentile they compute, their runs and reports.

alter table memories
    add column usage_percentile real not null default 0 check (usage_percentile between 0 and 1);

-- Tier moves and quota eviction scan one user's current memories.
create index memories_user_active_idx on memories (tenant_id, user_id) where status = 'active';

create table maintenance_runs (
    id              uuid        primary key,
    job             text        not null check (job in ('decay', 'consolidate', 'retention', 'quota', 'reindex')),
    -- null: every tenant (scheduled and operator runs); set: an admin key's own tenant
    tenant_id       text,
    as_of           timestamptz not null,
    requested_by    text        not null,
    status          text        not null check (status in ('requested', 'running', 'succeeded', 'failed')),
    requested_at    timestamptz not null default now(),
    started_at      timestamptz,
    finished_at     timestamptz,
    report          jsonb,
    error           text
);
create index maintenance_runs_status_idx on maintenance_runs (status, requested_at);

-- What each partition of a run counted; summed into the run's report when it ends.
create table maintenance_run_counts (
    run_id          uuid        not null references maintenance_runs (id) on delete cascade,
    name            text        not null,
    value           bigint      not null,
    primary key (run_id, name)
);
