package io.polylink.method.shm.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Which running host a context is on: the machine id and the id of the current boot. Two contexts
 * with equal identities share a kernel, so they can share memory if they also see the same segment
 * directory; the boot id keeps a machine from mistaking its own earlier life for itself.
 *
 * @param machine 16 bytes
 * @param boot 16 bytes
 */
record HostIdentity(byte[] machine, byte[] boot) {

    static final int BYTES = 32;

    HostIdentity {
        if (machine.length != 16 || boot.length != 16) {
            throw new IllegalArgumentException("a host identity is two 16-byte ids");
        }
        machine = machine.clone();
        boot = boot.clone();
    }

    /**
     * Reads {@code /etc/machine-id} (or dbus' copy) and the kernel's boot id; falls back to a hash
     * of the host name where they are missing, which is still stable for the host's lifetime.
     */
    static HostIdentity local() {
        byte[] machine = id(Path.of("/etc/machine-id"));
        if (machine == null) {
            machine = id(Path.of("/var/lib/dbus/machine-id"));
        }
        if (machine == null) {
            machine = Arrays.copyOf(sha256("host:" + hostName()), 16);
        }
        byte[] boot = id(Path.of("/proc/sys/kernel/random/boot_id"));
        if (boot == null) {
            boot = new byte[16];
        }
        return new HostIdentity(machine, boot);
    }

    /** @return an identity derived from a configured name: for tests, or hosts that cannot tell */
    static HostIdentity named(String name) {
        byte[] hash = sha256("polylink-host:" + name);
        return new HostIdentity(Arrays.copyOf(hash, 16), Arrays.copyOfRange(hash, 16, 32));
    }

    private static byte[] id(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.US_ASCII).strip().replace("-", "");
            return text.length() == 32 ? HexFormat.of().parseHex(text) : null;
        } catch (IOException | IllegalArgumentException | SecurityException e) {
            return null;
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    boolean sameHost(HostIdentity other) {
        return Arrays.equals(machine, other.machine) && Arrays.equals(boot, other.boot);
    }

    /** @return why {@code other} is not this host, in a few words */
    String difference(HostIdentity other) {
        if (!Arrays.equals(machine, other.machine)) {
            return "other host (machine " + shortHex(other.machine) + "…, here " + shortHex(machine) + "…)";
        }
        return "other boot of this machine (boot " + shortHex(other.boot) + "…, here " + shortHex(boot) + "…)";
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

    @Override
    public String toString() {
        return "machine " + shortHex(machine) + "…, boot " + shortHex(boot) + "…";
    }
}
