package io.polylink.method.compress.internal;

import io.polylink.spi.Transform;
import io.polylink.spi.TransformPeer;
import io.polylink.spi.TransformSession;
import java.util.Map;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The {@code lz4} transform: LZ4 block compression of each payload on its own, through lz4-java's
 * fastest implementation (JNI where its native library loads). Decoding only ever uses the
 * safe decompressor, which checks every offset against the input and output bounds; the "fast"
 * one trusts the input and is never used on bytes from a peer.
 *
 * <p>A new configuration replaces the component, so the core sees the transform leave and come
 * back and its links select again.
 */
@Component(service = Transform.class, configurationPid = Lz4Transform.PID,
    property = Transform.NAME_PROPERTY + "=" + Lz4Transform.NAME)
@Designate(ocd = Lz4Config.class)
public final class Lz4Transform implements Transform {

    static final String NAME = "lz4";
    static final String PID = "io.polylink.method.compress";

    private final Lz4Settings settings;
    private final LZ4Compressor compressor;
    private final LZ4SafeDecompressor decompressor;

    /** For Declarative Services: the configuration's properties, keyed as {@link Lz4Config}. */
    @Activate
    public Lz4Transform(Map<String, Object> properties) {
        this(Lz4Settings.parse(properties));
    }

    Lz4Transform(Lz4Settings settings) {
        this.settings = settings;
        LZ4Factory factory = LZ4Factory.fastestInstance();
        this.compressor = factory.fastCompressor();
        this.decompressor = factory.safeDecompressor();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public TransformSession open(TransformPeer peer) {
        int minSize = settings.scope().covers(peer.location()) ? settings.minSize() : Integer.MAX_VALUE;
        return new Lz4Session(compressor, decompressor, minSize,
            "context " + peer.peer() + " over " + peer.method());
    }

    /** @return the lz4-java implementation in use, for logs and measurements */
    String implementation() {
        return compressor + "/" + decompressor;
    }

    @Override
    public String toString() {
        return "lz4 transform (" + implementation() + ", minSize " + settings.minSize() + ", scope "
            + settings.scope() + ")";
    }
}
