-- A memory that states a value a newer fact superseded (an excerpt, a summary, another fact) stays
-- a record of what was said, but is no longer presented as current: it names the fact that
-- contradicts it, and its consistency score drops.
alter table memories add column contradicted_by uuid;

-- Every turn whose window the extraction job has stored, so that the same turns sent again (a
-- client's retry, a re-sent session) change nothing. Ids only, never content; a forget deletes them.
create table turns_seen (
    tenant_id   text        not null,
    project_id  text        not null,
    environment text        not null,
    user_id     text        not null,
    session_id  text        not null,
    turn_id     text        not null,
    seen_at     timestamptz not null default now(),
    primary key (tenant_id, project_id, environment, user_id, session_id, turn_id)
);
