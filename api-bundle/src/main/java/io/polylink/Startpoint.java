package io.polylink;

import java.util.List;
import java.util.function.UnaryOperator;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The sending end of links: names one endpoint, or several (multicast), together with the
 * descriptor table of each endpoint's context.
 *
 * <p>A startpoint can be written into a message ({@link MessageBuffer#putStartpoint}) or into text
 * ({@link #toText()}) and read back in another context, where it still reaches its endpoints.
 * Table edits travel with the startpoint, since the table does; pins, forbidden methods and
 * parameters belong to this copy in this context, and {@link #copy()} starts an independent one.
 *
 * <p>All methods are thread-safe. Sends from one thread on one startpoint arrive in order
 * (per link FIFO); sends from different threads are ordered as the context saw them.
 */
@ProviderType
public interface Startpoint {

    /**
     * Sends a remote service request: the bytes written to {@code message} go to every bound
     * endpoint, where handler {@code handlerId} runs. Returns once the message is handed to the
     * link's method (or, for an inline handler in the same context, once it ran); the buffer may
     * be reused at once.
     *
     * <p>On first use, and after methods come or go, the link's method stack is selected from the
     * target's descriptor table.
     *
     * @param handlerId 0 to {@link Endpoint#MAX_HANDLER_ID}
     * @param message the payload, from its first byte to the last byte written
     * @throws NoApplicableMethodException if no entry of a target's table can be used
     * @throws LinkException if the link failed or stayed full beyond its send timeout
     * @throws IllegalArgumentException if {@code handlerId} is out of range
     */
    void send(int handlerId, MessageBuffer message);

    /** @return the endpoints this startpoint is bound to, in the order they were joined */
    List<Target> targets();

    /**
     * @param other more endpoints to send to
     * @return a new multicast startpoint bound to the targets of this and {@code other}
     */
    Startpoint join(Startpoint other);

    /** @return an independent copy with the same targets and settings */
    Startpoint copy();

    /**
     * Changes the descriptor table of every target, e.g. to reorder, add or remove entries.
     *
     * @param edit given each target's table, returns the table to use
     * @return this startpoint
     */
    Startpoint editTable(UnaryOperator<DescriptorTable> edit);

    /**
     * Uses only table entries whose stack is {@code stack}; {@code null} removes the pin.
     *
     * @param stack a method stack such as {@code tcp} or {@code lz4/tcp}
     * @return this startpoint
     */
    Startpoint pin(String stack);

    /**
     * Never uses entries with this stack, or whose method or any transform has this name.
     *
     * @param methodOrStack {@code tcp}, {@code lz4} or {@code lz4/tcp}
     * @return this startpoint
     */
    Startpoint forbid(String methodOrStack);

    /**
     * Sets a method parameter for this startpoint's links (e.g. socket buffer sizes), overriding
     * the method's configured default. The method decides which keys it knows.
     *
     * @param method the method name
     * @param key the parameter
     * @param value its value; {@code null} removes the override
     * @return this startpoint
     */
    Startpoint parameter(String method, String key, String value);

    /**
     * Runs selection for every target without sending and tells, for each table entry, whether
     * it was chosen or why not.
     *
     * @return one explanation per target
     */
    List<Explanation> explain();

    /** @return {@code polylink:} followed by URL-safe base64 of this startpoint and its tables */
    String toText();

    /** @return RSRs and bytes sent through this startpoint, and failed sends */
    Statistics statistics();

    /**
     * One endpoint a startpoint is bound to.
     *
     * @param context the endpoint's context
     * @param endpoint the endpoint's id in that context
     * @param table the descriptor table used to reach that context
     */
    record Target(ContextId context, int endpoint, DescriptorTable table) {}
}
