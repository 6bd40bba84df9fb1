package io.polylink.core.internal.wire;

/** Finds a descriptor table by id among those a peer sent on one channel. */
@FunctionalInterface
public interface TableResolver {

    TableResolver NONE = id -> null;

    /** @return the table, or {@code null} if this channel never received it */
    EncodedTable resolve(long id);
}
