-- The extraction job commits memories to PostgreSQL, then writes them to the index. When the index
-- does not take them (OpenSearch down), the job restarts from its checkpoint, but the turns are
-- already registered as stored (turns_seen), so the replay writes nothing: the memories would stay
-- missing from the index. Each commit therefore also records here what it still has to index,
-- with the vector the index needs (never the text), and removes it once the index has it. What
-- stays is written again from its row by the next writer. A forget deletes the rows, and with
-- them what they left here.
create table index_outbox (
    memory_id uuid        primary key references memories (id) on delete cascade,
    batch     uuid        not null,
    vector    real[],
    queued_at timestamptz not null default now()
);
create index index_outbox_queued on index_outbox (queued_at);
