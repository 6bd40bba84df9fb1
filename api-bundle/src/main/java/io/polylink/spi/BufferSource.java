package io.polylink.spi;

import io.polylink.MessageTooLargeException;
import java.nio.ByteBuffer;
import org.osgi.annotation.versioning.ProviderType;

/** Scratch memory the core lends a transform for its output. */
@ProviderType
public interface BufferSource {

    /**
     * @param capacity bytes needed
     * @return a cleared buffer of at least {@code capacity} bytes, valid until the transform
     *     returns
     * @throws MessageTooLargeException if {@code capacity} exceeds the core's bound: the input
     *     declared more than the context accepts, so the transform must not go on
     */
    ByteBuffer acquire(int capacity);
}
