package io.polylink.core.internal.provision;

import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** Gogo command {@code polylink:install}: a method or transform from the repository, by name. */
@Component(service = ProvisionCommands.class, property = {
    "osgi.command.scope=polylink",
    "osgi.command.function=install"})
public final class ProvisionCommands {

    private final Provisioner provisioner;

    @Activate
    public ProvisionCommands(@Reference Provisioner provisioner) {
        this.provisioner = provisioner;
    }

    /**
     * polylink:install NAME — finds the bundle that provides method or transform NAME in the
     * configured repository index, installs and starts it (with library bundles it needs), and
     * prints the bundles installed; or says why not.
     */
    @Descriptor("installs and starts a method or transform from the configured bundle repository, with the "
        + "library bundles it needs, whatever install.enabled says, and lists the bundles installed")
    public String install(@Descriptor("the method or transform, such as udp or lz4") String name) {
        if (!io.polylink.Descriptor.validName(name)) {
            return "'" + name + "' is not a method or transform name (1 to 32 of a-z, 0-9 and '-')";
        }
        return provisioner.install(name);
    }
}
