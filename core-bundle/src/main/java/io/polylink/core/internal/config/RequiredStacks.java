package io.polylink.core.internal.config;

import io.polylink.Descriptor;
import io.polylink.core.internal.local.LocalMethod;
import io.polylink.spi.PeerLocation;
import java.util.List;

/**
 * The stacks this context accepts RSRs on, and sends them on, by where the peer runs: the core's
 * {@code require}, {@code require.other-host} and {@code require.other-site} settings. Each names
 * transforms or methods, such as {@code aead} or {@code aead,shm}; a stack meets one if it uses
 * any of the names, and must meet every one whose scope the peer is in. A context's own traffic
 * over {@code local} never leaves it and is never refused.
 *
 * <p>Decided once per stack: when a peer announces it, and when selection weighs an entry, never
 * per frame.
 *
 * @param everyone names one of which every stack must use
 * @param otherHost names one of which every stack with a peer on another host must use
 * @param otherSite names one of which every stack with a peer on another site must use
 */
public record RequiredStacks(List<String> everyone, List<String> otherHost, List<String> otherSite) {

    /** The configuration keys, for the reasons refusals give. */
    public static final String EVERYONE = "require";
    public static final String OTHER_HOST = "require.other-host";
    public static final String OTHER_SITE = "require.other-site";

    /** Any stack will do. */
    public static final RequiredStacks NONE = new RequiredStacks(List.of(), List.of(), List.of());

    /** @throws IllegalArgumentException naming a name that no transform or method can have */
    public RequiredStacks {
        everyone = checked(everyone);
        otherHost = checked(otherHost);
        otherSite = checked(otherSite);
    }

    private static List<String> checked(List<String> names) {
        for (String name : names) {
            if (!Descriptor.validName(name)) {
                throw new IllegalArgumentException("'" + name + "' is not the name of a transform or method");
            }
        }
        return List.copyOf(names);
    }

    /**
     * @param peer where the peer says it runs; never {@link PeerLocation#SAME_CONTEXT}, which a
     *     peer could claim by taking this context's id
     * @return why a stack of these transforms over this method may not carry RSRs to or from a
     *     peer there, or {@code null} if it may
     */
    public String refusal(String method, List<String> transforms, PeerLocation peer) {
        if (method.equals(LocalMethod.NAME)) {
            return null;
        }
        String why = unmet(everyone, EVERYONE, "every peer", method, transforms);
        if (why == null && peer.offHost()) {
            why = unmet(otherHost, OTHER_HOST, "peers on other hosts", method, transforms);
        }
        if (why == null && peer.offSite()) {
            why = unmet(otherSite, OTHER_SITE, "peers on other sites", method, transforms);
        }
        return why;
    }

    /** @return whether a stack meets what is required of every peer, so this context may advertise it */
    public boolean admitsEveryone(String method, List<String> transforms) {
        return method.equals(LocalMethod.NAME) || unmet(everyone, EVERYONE, "", method, transforms) == null;
    }

    private static String unmet(List<String> anyOf, String key, String whom, String method, List<String> transforms) {
        if (anyOf.isEmpty() || anyOf.contains(method)) {
            return null;
        }
        for (String transform : transforms) {
            if (anyOf.contains(transform)) {
                return null;
            }
        }
        return "this context requires " + String.join(" or ", anyOf) + " of " + whom + " (" + key + "="
            + String.join(",", anyOf) + " in io.polylink.core)";
    }
}
