package io.polylink.core.internal.provision;

import io.polylink.Descriptor;
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
    public String install(String name) {
        if (!Descriptor.validName(name)) {
            return "'" + name + "' is not a method or transform name (1 to 32 of a-z, 0-9 and '-')";
        }
        return provisioner.install(name);
    }
}
