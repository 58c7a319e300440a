package io.engram.jobs.maintenance;

/** The work of one maintenance job on one partition of the users. */
public interface MaintenanceTask {

    void run(TaskContext ctx) throws Exception;
}
