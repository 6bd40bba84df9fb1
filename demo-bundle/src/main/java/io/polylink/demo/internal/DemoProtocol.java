package io.polylink.demo.internal;

/**
 * The handlers of every node's demo endpoint and what their messages hold, all fields in the
 * message buffer's network byte order.
 *
 * <pre>
 *   PING   [replyTo: startpoint][payload: rest]           answered with PONG [payload] to replyTo
 *   PONG   [payload: rest]                                counted by the pinging node
 *   STREAM [stream: long][sequence: long]                 one numbered RSR of a stream
 *   END    [stream: long][attempts: long][failed: int][failed sequence: long]...
 *                                                         after the last STREAM: which numbers the
 *                                                         sender tried, and which sends threw
 * </pre>
 */
final class DemoProtocol {

    static final int PING = 1;
    static final int PONG = 2;
    static final int STREAM = 3;
    static final int END = 4;

    /** Where a node publishes its demo endpoint in the naming registry. */
    static String publishedName(String node) {
        return "demo-" + node;
    }

    private DemoProtocol() {}
}
