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
     * @param peer the context to reach
     * @param address its address for this method
     * @param parameters per-link overrides of the method's configured parameters; unknown keys are
     *     the method's to reject
     * @return an open connection
     * @throws LinkException naming the address and the reason if it cannot connect
     */
    Connection connect(ContextId peer, byte[] address, Map<String, String> parameters);

    /**
     * @param address an address of this method
     * @return it in human terms, e.g. {@code 127.0.0.1:7000}; the text goes into explanations
     *     and shell tables
     */
    String describe(byte[] address);

    /** @return frames and bytes this method sent and received, and its errors */
    Statistics statistics();
}
