package io.polylink.core.internal;

/** Finds a descriptor table by id among those a peer sent on one channel. */
@FunctionalInterface
interface TableResolver {

    TableResolver NONE = id -> null;

    /** @return the table, or {@code null} if this channel never received it */
    EncodedTable resolve(long id);
}
