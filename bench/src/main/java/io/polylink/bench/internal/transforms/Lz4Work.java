package io.polylink.bench.internal.transforms;

import io.polylink.bench.internal.BenchTransforms;
import java.nio.ByteBuffer;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * lz4: the raw side is lz4-java's fastest instance (as the transform takes it) with the fast
 * compressor and the safe decompressor, one block per message, heap buffers reused.
 */
final class Lz4Work extends TransformWork {

    private final LZ4Factory factory = LZ4Factory.fastestInstance();
    private final LZ4Compressor compressor = factory.fastCompressor();
    private final LZ4SafeDecompressor decompressor = factory.safeDecompressor();
    Lz4Work(byte[] data) {
        super(data, BenchTransforms.lz4());
    }

    @Override
    Runnable raw() {
        int size = data.length;
        ByteBuffer input = ByteBuffer.wrap(data);
        ByteBuffer compressed = ByteBuffer.allocate(compressor.maxCompressedLength(size));
        ByteBuffer restored = ByteBuffer.allocate(size);
        int length = compressor.compress(input, 0, size, compressed, 0, compressed.capacity());
        decompressor.decompress(compressed, 0, length, restored, 0, size);
        checkSame("lz4-java", restored.duplicate());
        return () -> {
            int n = compressor.compress(input, 0, size, compressed, 0, compressed.capacity());
            int back = decompressor.decompress(compressed, 0, n, restored, 0, size);
            sink += restored.get(back - 1);
        };
    }

    @Override
    String name() {
        return "lz4";
    }

    @Override
    String rawDescription() {
        return "lz4-java " + factory + ": fast compressor + safe decompressor";
    }
}
