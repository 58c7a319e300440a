package io.engram.benchmarks.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU seconds used so far by processes of this machine, from Linux's {@code /proc}: one process by
 * pid, or every PostgreSQL process with the workers that have exited (counted in the postmaster's
 * reaped children, so a short autovacuum is not missed). NaN off Linux.
 */
public final class ProcessCpu {

    /** Linux counts process times in ticks of 1/100 s (USER_HZ). */
    public static final double TICKS_PER_SECOND = 100.0;

    /**
     * A process's or thread's line of {@code /proc/.../stat}: its name, parent, own CPU ticks (user
     * + system) and those of its children it has reaped.
     */
    public record Stat(String comm, long ppid, long ticks, long childTicks) {

        /** The stat of the process or thread at {@code dir}, or null when it has ended. */
        public static Stat read(Path dir) {
            try {
                String stat = Files.readString(dir.resolve("stat"));
                int close = stat.lastIndexOf(')');
                // After the name: state, ppid, ..., utime (12th), stime, cutime, cstime.
                String[] f = stat.substring(close + 2).split(" ");
                return new Stat(
                        stat.substring(stat.indexOf('(') + 1, close),
                        Long.parseLong(f[1]),
                        Long.parseLong(f[11]) + Long.parseLong(f[12]),
                        Long.parseLong(f[13]) + Long.parseLong(f[14]));
            } catch (IOException | RuntimeException ended) {
                return null;
            }
        }
    }

    private final Map<Long, Stat> stats;

    private ProcessCpu(Map<Long, Stat> stats) {
        this.stats = stats;
    }

    /** Every process's stat, now. */
    public static ProcessCpu now() {
        Map<Long, Stat> stats = new HashMap<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path proc : (Iterable<Path>) procs::iterator) {
                String name = proc.getFileName().toString();
                Stat stat = name.chars().allMatch(Character::isDigit) ? Stat.read(proc) : null;
                if (stat != null) {
                    stats.put(Long.parseLong(name), stat);
                }
            }
        } catch (IOException e) {
            return new ProcessCpu(null);
        }
        return new ProcessCpu(stats);
    }

    /** CPU seconds of one process (its own threads), NaN when unknown. */
    public double seconds(long pid) {
        if (stats == null || pid <= 0 || !stats.containsKey(pid)) {
            return Double.NaN;
        }
        return stats.get(pid).ticks() / TICKS_PER_SECOND;
    }

    /** CPU seconds of every PostgreSQL process, exited workers included. */
    public double postgresSeconds() {
        if (stats == null) {
            return Double.NaN;
        }
        long ticks = 0;
        for (Stat st : stats.values()) {
            if (!st.comm().equals("postgres")) {
                continue;
            }
            ticks += st.ticks();
            Stat parent = stats.get(st.ppid());
            if (parent == null || !parent.comm().equals("postgres")) {
                ticks += st.childTicks();
            }
        }
        return ticks / TICKS_PER_SECOND;
    }
}
