package io.engram.serving;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the serving tier has opened, closed in reverse order: on a failed start everything opened
 * before the failure, on shutdown everything. A close that fails is logged and the rest still
 * close.
 */
final class Opened {

    private static final Logger LOG = LoggerFactory.getLogger(Opened.class);

    /** Closing one resource. */
    @FunctionalInterface
    interface Closing {
        void close() throws Exception;
    }

    private record Entry(String name, Closing closing) {}

    private final Deque<Entry> opened = new ArrayDeque<>();

    /** Returns {@code resource}, to be closed by {@code closing} before what was opened earlier. */
    <T> T add(String name, T resource, Closing closing) {
        opened.push(new Entry(name, closing));
        return resource;
    }

    /** Closes everything, last opened first. */
    void closeAll() {
        while (!opened.isEmpty()) {
            Entry e = opened.pop();
            try {
                e.closing().close();
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            } catch (Exception ex) {
                LOG.warn("closing {} failed: {}", e.name(), ex.toString());
            }
        }
    }
}
