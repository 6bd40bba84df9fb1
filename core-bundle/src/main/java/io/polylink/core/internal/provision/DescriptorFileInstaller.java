package io.polylink.core.internal.provision;

import io.polylink.Descriptor;
import io.polylink.core.internal.registry.Installed;
import io.polylink.core.internal.select.InstallOnDemand;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.felix.fileinstall.ArtifactInstaller;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * Descriptor files in a directory FileInstall watches (the distribution's {@code deploy/}):
 * {@code NAME.method} holds one method stack per line ({@code udp}, {@code lz4/tcp}; {@code #}
 * starts a comment). Dropping the file adds its stacks to this context's own table, right after
 * {@code local}, installing a missing method or transform from the repository; changing it adds
 * the new ones; removing it withdraws them and uninstalls what it alone brought.
 *
 * <p>FileInstall hands over a file only once its size and time stayed the same for one poll, and
 * a file written elsewhere and renamed in arrives whole. What goes wrong with a file is logged and
 * handed back to FileInstall as an exception, never as an Error that would end its watcher.
 */
@Component(service = ArtifactInstaller.class)
public final class DescriptorFileInstaller implements ArtifactInstaller {

    /** File names this installer takes. */
    static final String SUFFIX = ".method";
    /** A descriptor file lists a few stacks; anything larger is a mistake. */
    static final int MAX_BYTES = 64 << 10;

    private static final System.Logger LOG = System.getLogger("io.polylink.core");

    private final Installed installed;
    private final Provisioner provisioner;

    @Activate
    public DescriptorFileInstaller(@Reference Installed installed, @Reference Provisioner provisioner) {
        this.installed = installed;
        this.provisioner = provisioner;
    }

    @Override
    public boolean canHandle(File artifact) {
        return artifact.getName().endsWith(SUFFIX) && !artifact.getName().startsWith(".");
    }

    @Override
    public void install(File artifact) throws IOException {
        try {
            add(artifact);
        } catch (IOException | IllegalArgumentException e) {
            LOG.log(Level.WARNING, "descriptor file " + artifact + " ignored: " + e.getMessage());
            throw e;
        } catch (Throwable t) {
            throw failed(artifact, "adding", t);
        }
    }

    private void add(File artifact) throws IOException {
        List<String> stacks = read(artifact);
        String owner = artifact.getAbsolutePath();
        installed.deploy(owner, stacks);
        List<String> notes = new ArrayList<>();
        for (String stack : stacks) {
            Descriptor d = new Descriptor(stack, new byte[0]);
            if (installed.method(d.method()) == null) {
                notes.add(d.method() + provisioner.request(InstallOnDemand.METHOD, d.method(), owner));
            }
            for (String transform : d.transforms()) {
                if (installed.transform(transform) == null) {
                    notes.add(transform + provisioner.request(InstallOnDemand.TRANSFORM, transform, owner));
                }
            }
        }
        LOG.log(Level.INFO, "descriptor file " + artifact + " adds " + String.join(", ", stacks)
            + " to this context's table" + (notes.isEmpty() ? "" : "; missing " + String.join("; ", notes)));
    }

    @Override
    public void update(File artifact) throws IOException {
        install(artifact);
    }

    @Override
    public void uninstall(File artifact) throws IOException {
        try {
            String owner = artifact.getAbsolutePath();
            installed.withdraw(owner);
            provisioner.release(owner);
        } catch (Throwable t) {
            throw failed(artifact, "withdrawing", t);
        }
        LOG.log(Level.INFO, "descriptor file " + artifact + " removed; its stacks are withdrawn from this context's table");
    }

    private static IOException failed(File artifact, String doing, Throwable t) {
        LOG.log(Level.WARNING, "descriptor file " + artifact + ": " + doing + " its stacks threw " + t, t);
        return new IOException(doing + " the stacks of " + artifact + " failed: " + t, t);
    }

    /**
     * @return the stacks the file lists, in order
     * @throws IOException if it cannot be read or is too large
     * @throws IllegalArgumentException naming the line if a stack is malformed, or if there is none
     */
    static List<String> read(File file) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file.toPath())) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        }
        if (bytes.length > MAX_BYTES) {
            throw new IOException("larger than " + MAX_BYTES + " bytes; a descriptor file lists method stacks, "
                + "one per line");
        }
        List<String> stacks = new ArrayList<>();
        String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\\R");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                stacks.add(new Descriptor(line, new byte[0]).stack());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        if (stacks.isEmpty()) {
            throw new IllegalArgumentException("it names no method stack; write one per line, e.g. 'udp' or 'lz4/tcp'");
        }
        return stacks;
    }
}
