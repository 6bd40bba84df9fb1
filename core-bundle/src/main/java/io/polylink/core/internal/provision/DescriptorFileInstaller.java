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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.felix.fileinstall.ArtifactInstaller;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

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
 *
 * <p>FileInstall hands a file over once, to the installer it knows then, so this installer
 * outlives the context's runtimes: it follows the registry of the runtime in force
 * ({@link Installed}) and applies every file it holds to each new one. The files are also
 * recorded ({@link DeployedFiles}), so that a new start of the core bundle applies them again.
 *
 * <p>Delayed, as Declarative Services makes a component with a service by default: it is made
 * when FileInstall takes the service, so a framework without FileInstall never loads its class.
 */
@Component(service = ArtifactInstaller.class)
public final class DescriptorFileInstaller implements ArtifactInstaller {

    /** File names this installer takes. */
    static final String SUFFIX = ".method";
    /** A descriptor file lists a few stacks; anything larger is a mistake. */
    static final int MAX_BYTES = 64 << 10;

    private static final System.Logger LOG = System.getLogger("io.polylink.core");

    /** Guarded by this. */
    private final DeployedFiles deployed;
    /** The registry of the runtime in force, or {@code null} while none runs; guarded by this. */
    private Installed installed;
    /** Guarded by this; {@code null} while there is none. */
    private Provisioner provisioner;

    /** Takes the files recorded before the core bundle stopped; they apply once a runtime is there. */
    @Activate
    public DescriptorFileInstaller(BundleContext bundle) {
        File record = bundle.getDataFile("descriptor-files");
        this.deployed = new DeployedFiles(record == null ? null : record.toPath());
    }

    /** A runtime of the context started: every file held applies to it. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
        policyOption = ReferencePolicyOption.GREEDY)
    synchronized void setInstalled(Installed installed) {
        this.installed = installed;
        applyAll();
    }

    synchronized void unsetInstalled(Installed gone) {
        if (installed == gone) {
            installed = null;
        }
    }

    /** Files met before the provisioner was there get what they lack installed now. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
        policyOption = ReferencePolicyOption.GREEDY)
    synchronized void setProvisioner(Provisioner provisioner) {
        this.provisioner = provisioner;
        applyAll();
    }

    synchronized void unsetProvisioner(Provisioner gone) {
        if (provisioner == gone) {
            provisioner = null;
        }
    }

    /** Applies each file held; one that went or no longer reads is dropped, and said so. */
    private void applyAll() {
        if (installed == null) {
            return;
        }
        for (Path file : deployed.files()) {
            try {
                apply(file.toFile(), read(file.toFile()));
            } catch (IOException | IllegalArgumentException e) {
                LOG.log(Level.WARNING, "descriptor file " + file + " is not applied again: " + e.getMessage());
                deployed.remove(file);
            }
        }
    }

    @Override
    public boolean canHandle(File artifact) {
        return artifact.getName().endsWith(SUFFIX) && !artifact.getName().startsWith(".");
    }

    @Override
    public synchronized void install(File artifact) throws IOException {
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
        deployed.add(artifact.toPath().toAbsolutePath());
        if (installed == null) {
            LOG.log(Level.INFO, "descriptor file " + artifact + " taken; its stacks join the table when the context "
                + "runs again");
            return;
        }
        apply(artifact, stacks);
    }

    /** Adds a file's stacks to the table in force, asking for what is missing. Caller holds the lock. */
    private void apply(File artifact, List<String> stacks) {
        String owner = artifact.getAbsolutePath();
        installed.deploy(owner, stacks);
        List<String> notes = new ArrayList<>();
        for (String stack : stacks) {
            Descriptor d = new Descriptor(stack, new byte[0]);
            if (installed.method(d.method()) == null) {
                notes.add(d.method() + request(InstallOnDemand.METHOD, d.method(), owner));
            }
            for (String transform : d.transforms()) {
                if (installed.transform(transform) == null) {
                    notes.add(transform + request(InstallOnDemand.TRANSFORM, transform, owner));
                }
            }
        }
        LOG.log(Level.INFO, "descriptor file " + artifact + " adds " + String.join(", ", stacks)
            + " to this context's table" + (notes.isEmpty() ? "" : "; missing " + String.join("; ", notes)));
    }

    private String request(String namespace, String name, String owner) {
        return provisioner == null ? "" : provisioner.request(namespace, name, owner);
    }

    @Override
    public void update(File artifact) throws IOException {
        install(artifact);
    }

    @Override
    public synchronized void uninstall(File artifact) throws IOException {
        try {
            String owner = artifact.getAbsolutePath();
            deployed.remove(artifact.toPath().toAbsolutePath());
            if (installed != null) {
                installed.withdraw(owner);
            }
            if (provisioner != null) {
                provisioner.release(owner);
            }
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
