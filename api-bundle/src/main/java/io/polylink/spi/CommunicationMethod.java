package io.polylink.spi;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Statistics;
import java.util.Map;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A way to reach other contexts: {@code tcp}, {@code shm}, or your own. Register an instance as
 * an OSGi service with the property {@link #NAME_PROPERTY} set to {@link #name()}.
 *
 * <p>The core calls {@link #start} before anything else and {@link #stop} at the end; the other
 * methods may be called from any thread in between. If the core restarts, a stopped method is
 * started again, so {@code stop} must leave it ready for another {@code start}. A method moves frames: byte
 * sequences of at most {@link MethodContext#maxFrameSize()} bytes, delivered whole, once, and
 * in order per connection. It runs its own threads for receiving, so progress never waits for the
 * application, and hands every complete frame to the core's {@link InboundSink}.
 *
 * <p>The kit {@code io.polylink:polylink-method-tck} checks a method against this contract in the
 * method's own build ({@code docs/writing-a-method.md}).
 */
@ConsumerType
public interface CommunicationMethod {

    /** Service property naming the method. */
    String NAME_PROPERTY = "polylink.method";

    /** Service property ordering methods in the context's own table; lower comes first. */
    String PREFERENCE_PROPERTY = "polylink.method.preference";

    /** @return the method's name, as used in method stacks: {@code [a-z0-9-]{1,32}} */
    String name();

    /**
     * Starts listening and returns when the method can give its local address.
     *
     * @param context what the core gives the method
     * @throws Exception if the method cannot run here; the core logs it and leaves the method out
     */
    void start(MethodContext context) throws Exception;

    /** Stops all threads and closes every connection and resource. Idempotent. */
    void stop();

    /** @return the address other contexts use to reach this one; valid after {@link #start} */
    byte[] localAddress();

    /**
     * @param peer the context to reach
     * @param address its address for this method, from its descriptor table
     * @return whether this method can reach it from here, and why
     */
    Applicability applicable(ContextId peer, byte[] address);

    /**
     * Opens (or returns an open) connection to a context. May block up to the method's connect
     * timeout. The core shares the connection among all links to {@code peer} with equal
     * parameters and calls this again after the connection closes.
     *
     * <p>The accepting side learns who dialled from the method itself: the dialling side sends
     * its own {@link MethodContext#contextId()} in the method's opening exchange, before any frame
     * (tcp in its handshake, shm in the producer slot it claims, a datagram method in every
     * datagram), and the accepting side's {@link Connection#peer()} returns it. The core keys
     * flows, acknowledgements and required stacks by that id, so a method that can prove it does
     * (tcp with a pre-shared key), and one that cannot says so in its documentation.
     *
     * <p>Two contexts may dial each other at once. The method need not make one connection of
     * the two: the core takes frames from every connection announced to it, whichever side
     * opened it, and sends on the one {@code connect} returned. A method that does keep only one
     * (tcp does, by a rule both ends apply) must never close a live connection on a peer's word
     * alone, or a peer could take another's place.
     *
     * @param peer the context to reach
     * @param address its address for this method
     * @param parameters per-link overrides of the method's configured parameters; unknown keys are
     *     the method's to reject
     * @return an open connection
     * @throws LinkException naming the address and the reason if it cannot connect
     */
    Connection connect(ContextId peer, byte[] address, Map<String, String> parameters);

    /**
     * Looks once for frames that came, on the calling thread, and hands them to the {@link
     * InboundSink} on it before returning ({@link io.polylink.Context#progress} calls this). A
     * method that can be driven so lets one thread at a time receive, its own or a caller:
     * a call while another thread receives returns 0 at once, and never blocks. While calls keep
     * coming, the method's own receiving threads may stand back (look less often, leave their
     * wake-up unarmed); the method's documentation says how soon they take over once the calls
     * stop, and it must be soon, since progress never waits for the application.
     *
     * <p>Called from any thread at any time, also before {@link #start} and after {@link #stop},
     * when it returns 0. The default cannot be driven from outside and returns 0.
     *
     * @return how much was received (frames or parts of frames): 0 if nothing came or another
     *     thread was receiving, more than 0 if something did
     */
    default int progress() {
        return 0;
    }

    /**
     * The threads that called {@link #progress} stop for a while ({@link
     * io.polylink.Context#handBackReceiving}): a method whose own receiving threads stand back
     * while calls come takes over now, as if a whole nap had passed without a call. Any thread;
     * must not block. The default does nothing, right for a method that never stands back.
     *
     * @since 0.8
     */
    default void handBackReceiving() {
    }

    /**
     * @param address an address of this method
     * @return it in human terms, e.g. {@code 127.0.0.1:7000}; the text goes into explanations
     *     and shell tables
     */
    String describe(byte[] address);

    /**
     * @return frames and bytes this method sent and received, and its errors, over its open
     *     connections and those that closed; bytes count frames as {@link Connection#statistics()}
     *     does
     */
    Statistics statistics();
}
