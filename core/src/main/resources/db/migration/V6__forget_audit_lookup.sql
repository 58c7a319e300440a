-- The extraction job asks, once per user it starts to hold state for, when the user was last
-- forgotten (in the project or in every project), so that a replay of the turns topic cannot turn
-- turns sent before a forget into memories again.
create index forget_audit_user_idx
    on forget_audit (tenant_id, environment, user_id, created_at);
