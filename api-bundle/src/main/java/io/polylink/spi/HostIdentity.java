package io.polylink.spi;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Which running host a context is on: a 16-byte machine id and a 16-byte id of the machine's
 * current boot. Two contexts with equal identities share a kernel, so they can share memory; the
 * boot id keeps a machine from taking its own earlier life for itself. The core finds this host's
 * identity once (from {@code /etc/machine-id} and the kernel's boot id, or from the core's
 * {@code hostId} setting) and gives it to every method through {@link MethodContext#host()}, so
 * every method agrees on what "same host" means.
 */
public final class HostIdentity {

    /** Bytes of {@link #bytes()}: the machine id, then the boot id. */
    public static final int BYTES = 32;

    private final byte[] machine;
    private final byte[] boot;

    private HostIdentity(byte[] machine, byte[] boot) {
        this.machine = machine;
        this.boot = boot;
    }

    /**
     * @param machine 16 bytes naming the machine
     * @param boot 16 bytes naming its current boot
     * @return the identity
     * @throws IllegalArgumentException if either is not 16 bytes long
     */
    public static HostIdentity of(byte[] machine, byte[] boot) {
        if (machine.length != BYTES / 2 || boot.length != BYTES / 2) {
            throw new IllegalArgumentException("a host identity is two 16-byte ids, not " + machine.length
                + " and " + boot.length + " bytes");
        }
        return new HostIdentity(machine.clone(), boot.clone());
    }

    /**
     * @param bytes {@link #BYTES} bytes, as {@link #bytes()} gives them
     * @return the identity
     * @throws IllegalArgumentException if there are not {@link #BYTES} of them
     */
    public static HostIdentity fromBytes(byte[] bytes) {
        if (bytes.length != BYTES) {
            throw new IllegalArgumentException("a host identity is " + BYTES + " bytes, not " + bytes.length);
        }
        return new HostIdentity(Arrays.copyOf(bytes, BYTES / 2), Arrays.copyOfRange(bytes, BYTES / 2, BYTES));
    }

    /**
     * An identity derived from a name, for hosts that are told who they are rather than find out:
     * network namespaces standing for separate hosts, or containers sharing a machine id.
     *
     * @param name any text; equal names give equal identities
     * @return the identity
     */
    public static HostIdentity named(String name) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                .digest(("polylink-host:" + name).getBytes(StandardCharsets.UTF_8));
            return fromBytes(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    /** @return the machine id, then the boot id: {@link #BYTES} bytes, a copy */
    public byte[] bytes() {
        byte[] out = Arrays.copyOf(machine, BYTES);
        System.arraycopy(boot, 0, out, BYTES / 2, BYTES / 2);
        return out;
    }

    /**
     * @param other another identity
     * @return whether it names this host in its current boot
     */
    public boolean sameHost(HostIdentity other) {
        return Arrays.equals(machine, other.machine) && Arrays.equals(boot, other.boot);
    }

    /**
     * @param other an identity that is not this one
     * @return why it is not this host, in a few words, for explanations
     */
    public String difference(HostIdentity other) {
        if (!Arrays.equals(machine, other.machine)) {
            return "other host (machine " + shortHex(other.machine) + "…, here " + shortHex(machine) + "…)";
        }
        if (!Arrays.equals(boot, other.boot)) {
            return "other boot of this machine (boot " + shortHex(other.boot) + "…, here " + shortHex(boot) + "…)";
        }
        return "same host";
    }

    private static String shortHex(byte[] id) {
        return HexFormat.of().formatHex(id, 0, 4);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HostIdentity h && sameHost(h);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(machine) * 31 + Arrays.hashCode(boot);
    }

    /** @return {@code machine 1a2b3c4d…, boot 5e6f7a8b…} */
    @Override
    public String toString() {
        return "machine " + shortHex(machine) + "…, boot " + shortHex(boot) + "…";
    }
}
