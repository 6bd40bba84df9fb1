package io.polylink;

import java.security.SecureRandom;
import java.util.UUID;

/**
 * The globally unique identity of a {@link Context}: 128 random bits, fresh for each start of a
 * runtime, so a restarted process is a new context.
 *
 * @param high the most significant 64 bits
 * @param low the least significant 64 bits
 */
public record ContextId(long high, long low) {

    /** Bytes of a context id on the wire. */
    public static final int BYTES = 16;

    private static final SecureRandom RANDOM = new SecureRandom();

    /** @return a new random id */
    public static ContextId random() {
        return new ContextId(RANDOM.nextLong(), RANDOM.nextLong());
    }

    /**
     * @param text the form produced by {@link #toString()}
     * @return the id
     * @throws IllegalArgumentException if {@code text} is not a context id
     */
    public static ContextId parse(String text) {
        UUID uuid = UUID.fromString(text);
        return new ContextId(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits());
    }

    @Override
    public String toString() {
        return new UUID(high, low).toString();
    }
}
