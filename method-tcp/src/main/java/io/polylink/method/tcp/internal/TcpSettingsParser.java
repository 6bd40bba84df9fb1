package io.polylink.method.tcp.internal;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Reads {@link TcpSettings} from configuration properties keyed as in {@link TcpConfig}. */
final class TcpSettingsParser {

    private TcpSettingsParser() {}

    /** @throws IllegalArgumentException naming the property that is wrong */
    static TcpSettings parse(Map<String, ?> p) {
        TcpSettings d = TcpSettings.DEFAULTS;
        TcpSettings.Link l = d.link();
        return new TcpSettings(
            text(p, "bindAddress", d.bindAddress()),
            integer(p, "port", d.port()),
            list(p, "advertise"),
            IdleStrategy.parse(text(p, "idleStrategy", "spin-then-block")),
            integer(p, "spinMicros", d.spinMicros()),
            new TcpSettings.Link(
                Boolean.parseBoolean(text(p, "tcpNoDelay", Boolean.toString(l.tcpNoDelay()))),
                integer(p, "sendBuffer", l.sendBuffer()),
                integer(p, "receiveBuffer", l.receiveBuffer()),
                integer(p, "queueLimit", l.queueLimit()),
                integer(p, "sendTimeoutMs", l.sendTimeoutMs()),
                integer(p, "connectTimeoutMs", l.connectTimeoutMs()),
                integer(p, "heartbeatIntervalMs", l.heartbeatIntervalMs()),
                integer(p, "failureTimeoutMs", l.failureTimeoutMs())));
    }

    private static String text(Map<String, ?> p, String key, String fallback) {
        Object value = p.get(key);
        return value == null ? fallback : value.toString().strip();
    }

    private static int integer(Map<String, ?> p, String key, int fallback) {
        Object value = p.get(key);
        if (value instanceof Number n) {
            return n.intValue();
        }
        try {
            return value == null ? fallback : Integer.parseInt(value.toString().strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("tcp property " + key + "='" + value + "' is not an integer", e);
        }
    }

    private static List<String> list(Map<String, ?> p, String key) {
        Object value = p.get(key);
        String[] items = value instanceof String[] a ? a
            : value == null ? new String[0] : value.toString().split(",");
        return Arrays.stream(items).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
