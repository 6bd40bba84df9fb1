package io.polylink.mpi.internal.boot;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Where the {@code polylink mpirun} that started a rank on another host listens for its ranks, and
 * the job's key a rank proves it belongs to the job with.
 *
 * @param addresses mpirun's addresses, tried in order, each {@code host:port} ({@code [v6]:port})
 * @param key the job's key, 16 bytes
 */
public record MpirunContact(List<Address> addresses, byte[] key) {

    /** Bytes of the job's key. */
    public static final int KEY_BYTES = 16;

    /** One address mpirun listens on. */
    public record Address(String host, int port) {
        @Override
        public String toString() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }
    }

    public MpirunContact {
        addresses = List.copyOf(addresses);
        key = key.clone();
    }

    /**
     * @param addresses {@value LaunchSettings#MPIRUN}'s value, or {@code null}
     * @param key {@value LaunchSettings#MPIRUN_KEY}'s value, or {@code null}
     * @return the contact, or {@code null} if neither is set
     * @throws MpiError {@code ERR_ARG} naming the variable that is wrong
     */
    static MpirunContact from(String addresses, String key) {
        if (addresses == null && key == null) {
            return null;
        }
        if (addresses == null || key == null) {
            throw invalid("the launcher set " + (addresses == null ? LaunchSettings.MPIRUN_KEY + " but not "
                + LaunchSettings.MPIRUN : LaunchSettings.MPIRUN + " but not " + LaunchSettings.MPIRUN_KEY)
                + "; a rank that reports to mpirun needs both");
        }
        List<Address> list = new ArrayList<>();
        for (String one : addresses.split(",")) {
            list.add(address(one.trim(), addresses));
        }
        byte[] bytes;
        try {
            bytes = HexFormat.of().parseHex(key);
        } catch (IllegalArgumentException e) {
            bytes = new byte[0];
        }
        if (bytes.length != KEY_BYTES) {
            throw invalid(LaunchSettings.MPIRUN_KEY + " is not " + KEY_BYTES + " bytes in hex");
        }
        return new MpirunContact(list, bytes);
    }

    private static Address address(String text, String all) {
        int colon = text.lastIndexOf(':');
        String host = colon <= 0 ? "" : text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            int port = Integer.parseInt(text.substring(colon + 1));
            if (!host.isEmpty() && port > 0 && port < 65536) {
                return new Address(host, port);
            }
        } catch (NumberFormatException notAPort) {
            // said below
        }
        throw invalid(LaunchSettings.MPIRUN + "='" + all + "': '" + text + "' is not host:port");
    }

    private static MpiError invalid(String message) {
        return new MpiError(ErrorClass.ERR_ARG, "MPI.Init: " + message);
    }

    /** @return the job's key, a copy */
    @Override
    public byte[] key() {
        return key.clone();
    }

    /** @return the addresses, comma-separated; never the key */
    @Override
    public String toString() {
        return String.join(",", addresses.stream().map(Address::toString).toList());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MpirunContact c && c.addresses.equals(addresses) && java.util.Arrays.equals(c.key, key);
    }

    @Override
    public int hashCode() {
        return addresses.hashCode();
    }
}
