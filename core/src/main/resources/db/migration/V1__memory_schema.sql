-- Engram schema: PostgreSQL is the source of truth; OpenSearch is an index rebuilt from it.

create table memories (
    id                  uuid        primary key,
    tenant_id           text        not null,
    project_id          text        not null default 'default',
    environment         text        not null default 'production',
    user_id             text        not null,
    session_id          text,
    type                text        not null check (type in ('semantic', 'episodic', 'procedural', 'social')),
    content             text        not null check (length(content) between 1 and 8000),
    content_hash        text        not null,
    tags                text[]      not null default '{}',
    metadata            jsonb       not null default '{}'::jsonb,
    source              text        not null check (source in ('conversation', 'api', 'consolidation')),
    source_turn_ids     text[]      not null default '{}',
    importance          real        not null default 0.5 check (importance between 0 and 1),
    quality_score       real        not null default 0.5 check (quality_score between 0 and 1),
    consistency_score   real        not null default 1.0 check (consistency_score between 0 and 1),
    decay_score         real        not null default 1.0 check (decay_score between 0 and 1),
    usage_count         bigint      not null default 0 check (usage_count >= 0),
    last_accessed_at    timestamptz,
    tier                text        not null default 'hot' check (tier in ('hot', 'warm', 'cold')),
    status              text        not null default 'active'
                                    check (status in ('active', 'superseded', 'archived', 'expired')),
    valid_from          timestamptz not null,
    valid_to            timestamptz,
    superseded_by       uuid        references memories (id) on delete set null,
    version             integer     not null default 1 check (version >= 1),
    embedding_version   text        not null,
    created_at          timestamptz not null default now(),
    updated_at          timestamptz not null default now(),
    check (valid_to is null or valid_to >= valid_from)
);

-- Read path: hydrate and list a user's current memories; every query is scoped by tenant + user.
create index memories_scope_idx
    on memories (tenant_id, user_id, project_id, environment, status, created_at desc);
-- Write path: exact-duplicate check before a similarity decision.
create index memories_hash_idx
    on memories (tenant_id, user_id, content_hash) where status = 'active';
-- Maintenance: tiering and decay scan by last access within a tenant.
create index memories_access_idx on memories (tenant_id, tier, last_accessed_at);
-- Retention: expiry scans by type and age.
create index memories_retention_idx on memories (tenant_id, project_id, type, created_at);
create index memories_superseded_by_idx on memories (superseded_by) where superseded_by is not null;

create table memory_events (
    id              bigint      generated always as identity primary key,
    memory_id       uuid        not null,
    tenant_id       text        not null,
    project_id      text        not null default 'default',
    environment     text        not null default 'production',
    user_id         text        not null,
    kind            text        not null check (kind in ('create', 'update', 'supersede', 'recall',
                                                       'consolidate', 'archive', 'restore',
                                                       'expire', 'delete', 'tier')),
    version         integer,
    -- Idempotency for replays: one event per (memory, kind, version) for write events.
    dedup_key       text,
    detail          jsonb       not null default '{}'::jsonb,
    created_at      timestamptz not null default now()
);
create index memory_events_memory_idx on memory_events (memory_id, created_at);
create index memory_events_scope_idx on memory_events (tenant_id, user_id, created_at);
create unique index memory_events_dedup_idx on memory_events (dedup_key) where dedup_key is not null;

create table archives (
    original_id         uuid        primary key,
    consolidated_id     uuid,
    tenant_id           text        not null,
    project_id          text        not null default 'default',
    environment         text        not null default 'production',
    user_id             text        not null,
    reason              text        not null check (reason in ('consolidation', 'quota', 'retention', 'manual')),
    original            jsonb       not null,
    archived_at         timestamptz not null default now()
);
create index archives_consolidated_idx on archives (consolidated_id);
create index archives_scope_idx on archives (tenant_id, user_id);

create table api_keys (
    id              uuid        primary key,
    key_prefix      text        not null,
    key_hash        text        not null unique,
    tenant_id       text        not null,
    project_id      text        not null default 'default',
    environment     text        not null default 'production',
    scopes          text[]      not null check (scopes <@ array['read', 'write', 'admin']::text[]),
    name            text        not null default '',
    rate_limit_per_s integer    check (rate_limit_per_s is null or rate_limit_per_s > 0),
    created_at      timestamptz not null default now(),
    revoked_at      timestamptz,
    last_used_at    timestamptz
);
create index api_keys_tenant_idx on api_keys (tenant_id);

create table retention_rules (
    id              uuid        primary key,
    tenant_id       text        not null,
    -- null project: the rule applies to every project of the tenant
    project_id      text,
    -- null category: the default for that scope
    category        text        check (category is null
                                       or category in ('semantic', 'episodic', 'procedural', 'social')),
    keep_days       integer     check (keep_days is null or keep_days > 0),
    grace_days      integer     not null default 7 check (grace_days >= 0),
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now()
);
create unique index retention_rules_scope_idx
    on retention_rules (tenant_id, coalesce(project_id, ''), coalesce(category, ''));

-- Per-user cache generation and quota counters live in Redis; user-level forget requests are
-- audited here without content.
create table forget_audit (
    id              bigint      generated always as identity primary key,
    tenant_id       text        not null,
    project_id      text,
    environment     text        not null,
    user_id         text        not null,
    requested_by    uuid,
    memories_deleted bigint     not null,
    created_at      timestamptz not null default now()
);
