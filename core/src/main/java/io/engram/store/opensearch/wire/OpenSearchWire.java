package io.engram.store.opensearch.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import jakarta.json.stream.JsonGenerator;
import jakarta.json.stream.JsonParser;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import org.opensearch.client.json.JsonpDeserializer;
import org.opensearch.client.json.JsonpMapper;
import org.opensearch.client.json.NdJsonpSerializable;
import org.opensearch.client.json.jackson.JacksonJsonpMapper;
import org.opensearch.client.transport.Endpoint;
import org.opensearch.client.transport.JsonEndpoint;
import org.opensearch.client.transport.TransportException;
import org.opensearch.client.transport.TransportOptions;
import org.opensearch.client.transport.endpoints.BooleanEndpoint;
import org.opensearch.client.transport.endpoints.BooleanResponse;
import org.opensearch.client.util.ApiTypeHelper;

/**
 * What Engram's two OpenSearch transports share: a typed request of the client turned into the
 * bytes of an HTTP request, and the bytes of an answer turned into the typed response or the
 * client's exception. Only the sending differs (the JDK's client blocking on worker threads,
 * Vert.x's client on an event loop), so both sign and time out the same way.
 */
public final class OpenSearchWire {

    /**
     * The mapper of every client: Jackson, with the fast floating-point writer and parser (a k-NN
     * query and a stored document each carry 384 floats, whose formatting was most of a request's
     * cost).
     */
    public static final JsonpMapper MAPPER = mapper();

    private static JsonpMapper mapper() {
        JsonFactory factory =
                JsonFactory.builder()
                        .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
                        .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
                        .build();
        ObjectMapper objects =
                new ObjectMapper(factory).configure(SerializationFeature.INDENT_OUTPUT, false);
        return new JacksonJsonpMapper(objects, factory);
    }

    private OpenSearchWire() {}

    /**
     * An HTTP request ready to send: {@code body} is null when the endpoint sends none; {@code
     * filtered}: it asks for a {@code filter_path}.
     */
    public record Outgoing(
            String method,
            String pathAndQuery,
            byte[] body,
            String contentType,
            boolean filtered) {}

    /** The query parameter that trims an answer to the paths named. */
    public static final String FILTER_PATH = "filter_path";

    /** The HTTP request of a typed request. */
    public static <RequestT> Outgoing encode(
            RequestT request, Endpoint<RequestT, ?, ?> endpoint, TransportOptions options) {
        StringBuilder path = new StringBuilder(endpoint.requestUrl(request));
        char separator = path.indexOf("?") < 0 ? '?' : '&';
        separator = appendQuery(path, endpoint.queryParameters(request), separator);
        if (options != null) {
            appendQuery(path, options.queryParameters(), separator);
        }
        boolean filtered =
                endpoint.queryParameters(request).containsKey(FILTER_PATH)
                        || (options != null && options.queryParameters().containsKey(FILTER_PATH));
        if (!endpoint.hasRequestBody()) {
            return new Outgoing(endpoint.method(request), path.toString(), null, null, filtered);
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream(1024);
        String contentType = "application/json";
        if (request instanceof NdJsonpSerializable nd) {
            writeNdJson(nd, body);
            contentType = "application/x-ndjson";
        } else {
            JsonGenerator generator = MAPPER.jsonProvider().createGenerator(body);
            MAPPER.serialize(request, generator);
            generator.close();
        }
        return new Outgoing(
                endpoint.method(request),
                path.toString(),
                body.toByteArray(),
                contentType,
                filtered);
    }

    private static char appendQuery(StringBuilder path, Map<String, String> params, char sep) {
        if (params == null) {
            return sep;
        }
        for (Map.Entry<String, String> p : params.entrySet()) {
            path.append(sep)
                    .append(URLEncoder.encode(p.getKey(), StandardCharsets.UTF_8))
                    .append('=')
                    .append(URLEncoder.encode(p.getValue(), StandardCharsets.UTF_8));
            sep = '&';
        }
        return sep;
    }

    /** Each item on a line of its own, nested bulk and msearch items flattened. */
    private static void writeNdJson(NdJsonpSerializable value, ByteArrayOutputStream out) {
        Iterator<?> items = value._serializables();
        while (items.hasNext()) {
            Object item = items.next();
            if (item instanceof NdJsonpSerializable nested && item != value) {
                writeNdJson(nested, out);
            } else {
                JsonGenerator generator = MAPPER.jsonProvider().createGenerator(out);
                MAPPER.serialize(item, generator);
                generator.close();
                out.write('\n');
            }
        }
    }

    /**
     * The typed response of an answer, or the client's exception: {@link
     * org.opensearch.client.opensearch._types.OpenSearchException} (with the status) for an error
     * OpenSearch described, {@link TransportException} for one it did not.
     *
     * @param filtered the request asked for a {@code filter_path}: the answer may lack what the
     *     client's types call required, and is read without that check
     */
    public static <ResponseT> ResponseT decode(
            int status,
            byte[] body,
            Endpoint<?, ResponseT, ?> endpoint,
            String requestLine,
            boolean filtered)
            throws IOException {
        if (endpoint.isError(status)) {
            Exception e = error(status, body, endpoint, requestLine);
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw (IOException) e;
        }
        if (endpoint instanceof BooleanEndpoint<?> bool) {
            @SuppressWarnings("unchecked")
            ResponseT response = (ResponseT) new BooleanResponse(bool.getResult(status));
            return response;
        }
        if (endpoint instanceof JsonEndpoint<?, ResponseT, ?> json) {
            JsonpDeserializer<ResponseT> deserializer = json.responseDeserializer();
            if (deserializer == null) {
                return null;
            }
            if (body.length == 0) {
                throw new TransportException(
                        requestLine + " answered " + status + " without the expected body");
            }
            try (ApiTypeHelper.DisabledChecksHandle checks =
                            ApiTypeHelper.DANGEROUS_disableRequiredPropertiesCheck(filtered);
                    JsonParser parser =
                            MAPPER.jsonProvider().createParser(new ByteArrayInputStream(body))) {
                return deserializer.deserialize(parser, MAPPER);
            }
        }
        throw new TransportException("unhandled endpoint type " + endpoint.getClass().getName());
    }

    private static <ErrorT> Exception error(
            int status, byte[] body, Endpoint<?, ?, ErrorT> endpoint, String requestLine) {
        JsonpDeserializer<ErrorT> deserializer = endpoint.errorDeserializer(status);
        if (deserializer != null && body.length > 0) {
            try (JsonParser parser =
                    MAPPER.jsonProvider().createParser(new ByteArrayInputStream(body))) {
                ErrorT error = deserializer.deserialize(parser, MAPPER);
                return endpoint.exceptionConverter(status, error);
            } catch (RuntimeException undecodable) {
                if (undecodable
                        instanceof org.opensearch.client.opensearch._types.OpenSearchException e) {
                    return e;
                }
                // Not OpenSearch's error shape (a proxy's page, a truncated body): say what came.
            }
        }
        return new StatusException(status, requestLine, new String(body, StandardCharsets.UTF_8));
    }

    /** An error answer OpenSearch did not describe in its own error shape. */
    public static final class StatusException extends TransportException {
        private static final long serialVersionUID = 1L;
        private final int status;

        StatusException(int status, String requestLine, String body) {
            super(
                    requestLine
                            + " answered "
                            + status
                            + (body.isEmpty()
                                    ? ""
                                    : ": " + body.substring(0, Math.min(body.length(), 500))));
            this.status = status;
        }

        public int status() {
            return status;
        }
    }
}
