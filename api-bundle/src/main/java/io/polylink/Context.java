package io.polylink;

import java.util.Optional;
import java.util.Set;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The Polylink runtime of one JVM, registered as an OSGi service (one per framework).
 *
 * <p>All methods are thread-safe.
 */
@ProviderType
public interface Context {

    /** @return this context's globally unique id */
    ContextId id();

    /**
     * @return the descriptor table startpoints of this context carry now, fastest first. It
     *     changes as methods come and go; startpoints made earlier keep the table they were made
     *     with.
     */
    DescriptorTable descriptorTable();

    /** @return a new endpoint with no handlers and no attachment */
    Endpoint createEndpoint();

    /**
     * @param attachment the local object handlers can reach through {@link Endpoint#attachment()}
     * @return a new endpoint with no handlers
     */
    Endpoint createEndpoint(Object attachment);

    /**
     * @param initialCapacity bytes to reserve; the buffer grows on demand up to
     *     {@link #maxMessageSize()}
     * @return an empty message buffer for this context
     * @throws IllegalArgumentException if {@code initialCapacity} is negative or above the
     *     maximum message size
     */
    MessageBuffer allocateBuffer(int initialCapacity);

    /**
     * Reads a startpoint from its text form ({@link Startpoint#toText()}).
     *
     * @param text {@code polylink:} followed by URL-safe base64
     * @return the startpoint
     * @throws MalformedMessageException if {@code text} is not a startpoint
     */
    Startpoint startpoint(String text);

    /**
     * Publishes a startpoint under a name through the naming registry, replacing any earlier one.
     *
     * @param name a name of letters, digits, '.', '_' and '-'
     * @param startpoint what {@link #lookup(String)} will return
     * @throws PolylinkException if the name is invalid or the registry cannot store it
     */
    void publish(String name, Startpoint startpoint);

    /**
     * @param name a published name
     * @return the startpoint published under {@code name}, or empty if there is none
     * @throws PolylinkException if the name is invalid or the registry cannot be read
     */
    Optional<Startpoint> lookup(String name);

    /**
     * Withdraws a published name; nothing happens if it is not published.
     *
     * @param name a name given to {@link #publish(String, Startpoint)}
     */
    void unpublish(String name);

    /** @return the names of the communication methods installed in this context now */
    Set<String> methods();

    /** @return the names of the transforms installed in this context now */
    Set<String> transforms();

    /** @return the largest RSR payload this context sends or accepts, in bytes */
    int maxMessageSize();

    /** @return totals over all links of this context since it started */
    Statistics statistics();

    /**
     * Receives on the calling thread: every method that can be driven from outside looks once
     * for frames that came (shm can; a method's documentation says whether it can), and the
     * handlers of the RSRs it finds run on this thread before this returns.
     *
     * <p>A thread that waits for an answer calls this in its wait loop, and the answer reaches it
     * with no hand-off between threads and no wake-up: on shared memory, a round trip at the speed
     * of the memory. While callers keep calling, a method's own receiving threads stand back; they
     * take over again shortly after the calls stop (within a millisecond for shm), or at once when
     * a caller says it stops ({@link #handBackReceiving}), so RSRs are received whether or not
     * anyone calls this. A call made while another thread, or a handler
     * on this one, is already receiving for a method finds nothing in that method.
     *
     * @return how much was received: 0 if nothing came, more than 0 if something did
     */
    int progress();

    /**
     * Hands receiving back to the methods' own threads: the calling thread, which has been
     * calling {@link #progress}, goes on to work of its own while RSRs it waits for may still
     * come (an answer to a request it started and will wait for later). A method whose receiving
     * threads stand back while callers receive takes over at once, instead of once its nap ends,
     * so what comes meanwhile is received while the thread works. Costs nothing where no thread
     * stands back; calling {@link #progress} again is served as before.
     *
     * @since 0.9
     */
    void handBackReceiving();
}
