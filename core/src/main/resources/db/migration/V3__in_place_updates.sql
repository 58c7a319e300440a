-- Decay, tier and usage bookkeeping rewrite a few columns of many rows every day. With no index
-- on those columns and free room in every page, PostgreSQL updates such rows in place (HOT
-- updates) without touching any index. The access index was only a candidate access path for
-- tiering; the maintenance jobs scan by user partition instead.
drop index memories_access_idx;
alter table memories set (fillfactor = 85);
