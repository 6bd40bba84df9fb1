package io.polylink.core.internal.wire;

import io.polylink.MalformedMessageException;
import io.polylink.spi.HostIdentity;
import io.polylink.spi.PeerLocation;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Where a context runs: its host and its site, as it says of itself in its descriptor table and in
 * each stack announcement, so that a peer can tell how near it is ({@link #seenFrom}). A context
 * that said nothing is {@link #UNKNOWN} and counts as farthest. Network byte order.
 *
 * <pre>
 *   0       1               1 + h   2 + h
 *   +-------+-------+--...--+-------+-------+--...--+
 *   |   h   |     host      |   s   |     site      |
 *   +-------+-------+--...--+-------+-------+--...--+
 * </pre>
 *
 * <ul>
 *   <li>h: 0 if the context does not say, else {@link HostIdentity#BYTES}.
 *   <li>host: the host's identity, as {@link HostIdentity#bytes()} gives it.
 *   <li>s: 0 to {@link #MAX_SITE_LENGTH}; 0 when the host is a site of its own.
 *   <li>site: the site's name, ASCII letters, digits, {@code .}, {@code _} and {@code -}.
 * </ul>
 *
 * @param host the host's identity, or {@code null} if the context did not say
 * @param site the site's name, or empty if the host is a site of its own
 */
public record Origin(HostIdentity host, String site) {

    public static final int MAX_SITE_LENGTH = 64;
    private static final Pattern SITE = Pattern.compile("[A-Za-z0-9._-]{0," + MAX_SITE_LENGTH + "}");
    /** A context that did not say where it runs. */
    public static final Origin UNKNOWN = new Origin(null, "");

    /** @throws IllegalArgumentException if the site is not a site's name */
    public Origin {
        if (!isSite(site)) {
            throw new IllegalArgumentException("site '" + site + "' is not at most " + MAX_SITE_LENGTH
                + " letters, digits, '.', '_' and '-'");
        }
    }

    /** @return whether {@code name} may name a site; empty may */
    public static boolean isSite(String name) {
        return SITE.matcher(name).matches();
    }

    /**
     * @param here where this context runs
     * @return where a context of this origin runs, seen from {@code here}, taking it at its word;
     *     {@link PeerLocation#OTHER_SITE} if it did not say. Never {@link PeerLocation#SAME_CONTEXT}:
     *     contexts are told apart by their ids.
     */
    public PeerLocation seenFrom(Origin here) {
        if (host == null || here.host == null) {
            return PeerLocation.OTHER_SITE;
        }
        if (host.sameHost(here.host)) {
            return PeerLocation.SAME_HOST;
        }
        return !site.isEmpty() && site.equals(here.site) ? PeerLocation.SAME_SITE : PeerLocation.OTHER_SITE;
    }

    /** @return bytes of the encoded form */
    public int length() {
        return 2 + (host == null ? 0 : HostIdentity.BYTES) + site.length();
    }

    /** Writes the encoded form at {@code out}'s position and moves past it. */
    public void write(ByteBuffer out) {
        if (host == null) {
            out.put((byte) 0);
        } else {
            out.put((byte) HostIdentity.BYTES).put(host.bytes());
        }
        out.put((byte) site.length()).put(site.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Reads an encoded origin at {@code in}'s position and moves past it.
     *
     * @throws MalformedMessageException if it is truncated, or a length or the site is not one an
     *     origin can have
     */
    public static Origin read(ByteBuffer in) {
        int hostLength = WireInput.u8(in, "origin host length");
        if (hostLength != 0 && hostLength != HostIdentity.BYTES) {
            throw new MalformedMessageException("origin host of " + hostLength + " bytes; a host identity has "
                + HostIdentity.BYTES);
        }
        HostIdentity host = hostLength == 0 ? null
            : HostIdentity.fromBytes(WireInput.bytes(in, hostLength, "origin host"));
        int siteLength = WireInput.u8(in, "origin site length");
        if (siteLength > MAX_SITE_LENGTH) {
            throw new MalformedMessageException("origin site of " + siteLength + " bytes exceeds " + MAX_SITE_LENGTH);
        }
        byte[] site = WireInput.bytes(in, siteLength, "origin site");
        String name = new String(site, StandardCharsets.US_ASCII);
        if (!isSite(name)) {
            throw new MalformedMessageException("origin site '" + WireInput.printable(site)
                + "' is not letters, digits, '.', '_' and '-'");
        }
        return new Origin(host, name);
    }
}
