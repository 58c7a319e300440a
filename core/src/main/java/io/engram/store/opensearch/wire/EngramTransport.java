package io.engram.store.opensearch.wire;

import org.opensearch.client.json.JsonpMapper;
import org.opensearch.client.transport.OpenSearchTransport;
import org.opensearch.client.transport.TransportOptions;

/**
 * What Engram's transports have in common: the mapper of {@link OpenSearchWire}, no default
 * options.
 */
public abstract class EngramTransport implements OpenSearchTransport {

    private final TransportOptions options = TransportOptions.builder().build();

    @Override
    public final JsonpMapper jsonpMapper() {
        return OpenSearchWire.MAPPER;
    }

    @Override
    public final TransportOptions options() {
        return options;
    }
}
