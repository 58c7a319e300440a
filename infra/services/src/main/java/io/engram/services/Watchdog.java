package io.engram.services;

/** The shell watchdog that runs a native server and stops it when its standard input closes. */
final class Watchdog {

    private Watchdog() {}

    /**
     * {@code sh -c SCRIPT engram-watchdog SIGNAL command args...}: the server gets /dev/null as
     * input; a helper reads the watchdog's own input (the pipe from the JVM) and sends SIGNAL to
     * the server at end of input. The watchdog exits with the server's exit code.
     */
    static final String SCRIPT =
            "sig=$1; shift\n"
                    + "exec 3<&0\n"
                    + "\"$@\" </dev/null 3<&- &\n"
                    + "server=$!\n"
                    + "( cat <&3 >/dev/null 2>&1; kill -s \"$sig\" \"$server\" 2>/dev/null ) &\n"
                    + "helper=$!\n"
                    + "exec 3<&-\n"
                    + "trap 'kill -s \"$sig\" \"$server\" 2>/dev/null' TERM INT\n"
                    + "while :; do\n"
                    + "  wait \"$server\"; rc=$?\n"
                    + "  kill -0 \"$server\" 2>/dev/null || break\n"
                    + "done\n"
                    + "kill \"$helper\" 2>/dev/null\n"
                    + "exit $rc\n";
}
