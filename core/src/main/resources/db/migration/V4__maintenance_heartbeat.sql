-- A running maintenance run's runner writes a heartbeat. A run whose heartbeat stops (its process
-- was killed) is failed by the next runner instead of staying 'running' for ever, and a failed
-- daily run is requested again.
alter table maintenance_runs add column heartbeat_at timestamptz;
