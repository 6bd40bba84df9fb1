package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a communicator's info says about its collectives: {@code polylink.coll.<collective>} names
 * the algorithm a collective takes (or {@code auto}: chosen per call), {@value #HIERARCHY}
 * whether collectives over several hosts go through one leader per host ({@code true} by
 * default), {@value #SEGMENT} the bytes of the segments of a pipelined broadcast or reduction.
 * Every rank of the communicator must give the same values.
 *
 * @param forced the algorithm named for each collective that names one
 * @param hierarchy whether collectives over several hosts are hierarchical
 * @param segment bytes per segment of a pipelined broadcast or reduction
 */
public record Tuning(Map<Collective, String> forced, boolean hierarchy, int segment) {

    public static final String PREFIX = "polylink.coll.";
    public static final String HIERARCHY = "polylink.coll.hierarchy";
    public static final String SEGMENT = "polylink.coll.segment";
    /** Read-only: the algorithm the last call of each collective took, and why. */
    public static final String CHOICES = "polylink.collectives";
    public static final String AUTO = "auto";

    public static final int DEFAULT_SEGMENT = 64 * 1024;
    public static final Tuning DEFAULT = new Tuning(Map.of(), true, DEFAULT_SEGMENT);

    private static final int MIN_SEGMENT = 1024;

    public Tuning {
        forced = Map.copyOf(forced);
    }

    /**
     * @return what {@code info} says
     * @throws MpiError {@code ERR_INFO_KEY} for a {@code polylink.coll.} key no collective has,
     *     {@code ERR_INFO_VALUE} naming a value that is not one of the key's
     */
    public static Tuning of(Map<String, String> info) {
        Map<Collective, String> forced = new EnumMap<>(Collective.class);
        boolean hierarchy = true;
        int segment = DEFAULT_SEGMENT;
        for (Map.Entry<String, String> e : info.entrySet()) {
            String key = e.getKey();
            if (!key.startsWith(PREFIX)) {
                continue;
            }
            String value = e.getValue().trim();
            if (key.equals(HIERARCHY)) {
                if (!value.equals("true") && !value.equals("false")) {
                    throw new MpiError(ErrorClass.ERR_INFO_VALUE, "info " + key + "='" + value + "': true or false");
                }
                hierarchy = value.equals("true");
            } else if (key.equals(SEGMENT)) {
                segment = segment(key, value);
            } else {
                Collective c = collective(key);
                if (!value.equals(AUTO) && !c.algorithms().contains(value)) {
                    throw new MpiError(ErrorClass.ERR_INFO_VALUE, "info " + key + "='" + value + "' names no algorithm "
                        + "of " + c.function() + ": " + AUTO + ", " + String.join(", ", c.algorithms()));
                }
                if (!value.equals(AUTO)) {
                    forced.put(c, value);
                }
            }
        }
        return new Tuning(forced, hierarchy, segment);
    }

    private static Collective collective(String key) {
        String name = key.substring(PREFIX.length());
        return Arrays.stream(Collective.values()).filter(c -> c.key().equals(name)).findFirst()
            .orElseThrow(() -> new MpiError(ErrorClass.ERR_INFO_KEY, "info key " + key + " is not one of Polylink's: "
                + HIERARCHY + ", " + SEGMENT + ", " + Arrays.stream(Collective.values()).map(c -> PREFIX + c.key())
                .collect(Collectors.joining(", "))));
    }

    private static int segment(String key, String value) {
        try {
            int bytes = Integer.parseInt(value);
            if (bytes >= MIN_SEGMENT) {
                return bytes;
            }
        } catch (NumberFormatException notANumber) {
            // said below
        }
        throw new MpiError(ErrorClass.ERR_INFO_VALUE, "info " + key + "='" + value + "': a number of bytes, at least "
            + MIN_SEGMENT);
    }

    /** @return the algorithm the info names for {@code c}, or {@code null} to choose per call */
    public String forced(Collective c) {
        return forced.get(c);
    }
}
