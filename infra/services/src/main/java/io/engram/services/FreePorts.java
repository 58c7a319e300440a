package io.engram.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Finds ports that are free on 127.0.0.1 right now. */
public final class FreePorts {

    private FreePorts() {}

    public static int find() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }

    /** {@code preferred} if it is free, otherwise any free port. */
    public static int preferOrFind(int preferred) {
        if (preferred > 0 && isFree(preferred)) {
            return preferred;
        }
        return find();
    }

    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
