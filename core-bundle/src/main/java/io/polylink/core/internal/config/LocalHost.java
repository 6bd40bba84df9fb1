package io.polylink.core.internal.config;

import io.polylink.spi.HostIdentity;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;

/** Finds the identity of the host this JVM runs on. */
final class LocalHost {

    private LocalHost() {}

    /**
     * Reads {@code /etc/machine-id} (or dbus' copy) and the kernel's boot id; where the machine id
     * is missing, derives one from the host name, which is still stable for the host's lifetime.
     */
    static HostIdentity identity() {
        byte[] machine = id(Path.of("/etc/machine-id"));
        if (machine == null) {
            machine = id(Path.of("/var/lib/dbus/machine-id"));
        }
        if (machine == null) {
            byte[] named = HostIdentity.named(hostName()).bytes();
            machine = java.util.Arrays.copyOf(named, HostIdentity.BYTES / 2);
        }
        byte[] boot = id(Path.of("/proc/sys/kernel/random/boot_id"));
        return HostIdentity.of(machine, boot == null ? new byte[HostIdentity.BYTES / 2] : boot);
    }

    /** @return a 32-hex-digit id from a small file, or {@code null} if it is missing or not one */
    private static byte[] id(Path file) {
        try {
            if (!Files.isRegularFile(file) || Files.size(file) > 256) {
                return null;
            }
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
}
