-- An admin key manages its own tenant only. Managing the keys of other tenants takes the separate
-- 'operator' scope, which the deployment's bootstrap key holds.
alter table api_keys drop constraint api_keys_scopes_check;
alter table api_keys add constraint api_keys_scopes_check
    check (scopes <@ array['read', 'write', 'admin', 'operator']::text[]);
update api_keys set scopes = scopes || array['operator']
 where name = 'bootstrap' and not ('operator' = any(scopes));

-- Metadata sent through the API was stored as a JSON string holding the object: make it the object
-- (a string that is not a JSON object is left as it is).
do $$
declare
    r record;
begin
    for r in select id, metadata #>> '{}' as text from memories where jsonb_typeof(metadata) = 'string' loop
        begin
            update memories set metadata = r.text::jsonb
             where id = r.id and jsonb_typeof(r.text::jsonb) = 'object';
        exception when others then
            null;
        end;
    end loop;
end $$;
