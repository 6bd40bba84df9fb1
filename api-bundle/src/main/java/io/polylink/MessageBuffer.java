package io.polylink;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The bytes of one RSR, written and read with bounds-checked routines in network byte order (the
 * bulk array routines also in an order of the caller's choice).
 *
 * <p>A buffer has a write index (its length) and a read index. Writes append and grow the buffer
 * up to the context's maximum message size; reads consume from the read index and never go past
 * the length. Variable-length items ({@code putBytes}, {@code putString}) carry a 32-bit length
 * that is checked against what remains before anything is allocated.
 *
 * <p>Not thread-safe: one thread fills a buffer, one thread reads it.
 *
 * <p>Reuse large buffers: the context keeps every RSR until the peer acknowledges it, and it keeps
 * a buffer sent more than once as it is, while it copies a buffer sent once. Writes after a send
 * never change what was sent: appends go past it, and {@link #clear()} moves the buffer to other
 * memory while the context still keeps the old.
 */
@ProviderType
public interface MessageBuffer {

    /** @return the number of bytes written */
    int length();

    /** @return the bytes left to read */
    int remaining();

    /** @return the read index */
    int readIndex();

    /**
     * Empties the buffer for reuse without releasing memory. If the context still keeps what the
     * buffer last sent, the buffer goes on in memory from the context's pool, sized for a message
     * as long as the last, and grows from there as writes need.
     *
     * @return this buffer
     */
    MessageBuffer clear();

    /**
     * Moves the read index back to the first byte.
     *
     * @return this buffer
     */
    MessageBuffer rewind();

    /**
     * @param value a byte
     * @return this buffer
     * @throws MessageTooLargeException if the buffer would exceed the maximum message size
     */
    MessageBuffer putByte(byte value);

    /** Writes 1 byte, 0 or 1. @param value the value @return this buffer */
    MessageBuffer putBoolean(boolean value);

    /** @param value the value @return this buffer @throws MessageTooLargeException if full */
    MessageBuffer putShort(short value);

    /** @param value the value @return this buffer @throws MessageTooLargeException if full */
    MessageBuffer putInt(int value);

    /** @param value the value @return this buffer @throws MessageTooLargeException if full */
    MessageBuffer putLong(long value);

    /** @param value the value @return this buffer @throws MessageTooLargeException if full */
    MessageBuffer putFloat(float value);

    /** @param value the value @return this buffer @throws MessageTooLargeException if full */
    MessageBuffer putDouble(double value);

    /**
     * Writes a 32-bit length followed by the bytes.
     *
     * @param value the bytes
     * @return this buffer
     * @throws MessageTooLargeException if full
     */
    MessageBuffer putBytes(byte[] value);

    /**
     * Writes a 32-bit length followed by {@code length} bytes of {@code value} from {@code offset}.
     *
     * @param value the source
     * @param offset first byte
     * @param length number of bytes
     * @return this buffer
     * @throws IndexOutOfBoundsException if the range is outside {@code value}
     * @throws MessageTooLargeException if full
     */
    MessageBuffer putBytes(byte[] value, int offset, int length);

    /**
     * Writes the bytes with no length in front; the reader must know how many to read.
     *
     * @param value the source
     * @param offset first byte
     * @param length number of bytes
     * @return this buffer
     * @throws MessageTooLargeException if full
     */
    MessageBuffer putRaw(byte[] value, int offset, int length);

    /**
     * Writes {@code length} bytes of {@code source} from index {@code offset}, with no length in
     * front, as {@link #putRaw(byte[], int, int)} does an array's: for data already in a buffer,
     * such as direct memory, without a copy through an array. The source's position, limit and
     * order are neither used nor changed.
     *
     * @param source the source
     * @param offset index of the first byte in {@code source}
     * @param length number of bytes
     * @return this buffer
     * @throws IndexOutOfBoundsException if the bytes are not all within {@code source}'s capacity
     * @throws MessageTooLargeException if full
     * @since 0.7
     */
    MessageBuffer putRaw(ByteBuffer source, int offset, int length);

    /**
     * Appends {@code length} bytes of {@code source} from index {@code offset} without copying
     * them: the context reads them from {@code source} when it sends the message, and again if a
     * link moves before the peer acknowledged it. The application lends the bytes and must not
     * change them until {@code released} runs. That happens once, when no RSR sent with them
     * waits for an acknowledgement any more (each was delivered, or its link gave up) and this
     * buffer no longer holds them ({@link #clear()}, or a write after them), on whichever thread
     * let go last; it must be short and must not block. For large messages, whose copy would
     * otherwise cost more than the wait for the acknowledgement: a message sent within this
     * context, a small one, one handed to a transform, and writes or reads after the lent bytes
     * copy them first and release them at once. The source's position, limit and order are
     * neither used nor changed.
     *
     * @param source the lent bytes' buffer, direct or not
     * @param offset index of the first byte in {@code source}
     * @param length number of bytes
     * @param released runs once the context no longer reads the lent bytes
     * @return this buffer
     * @throws IndexOutOfBoundsException if the bytes are not all within {@code source}'s capacity
     * @throws MessageTooLargeException if the message would exceed the context's maximum size
     * @since 0.8
     */
    MessageBuffer putLent(ByteBuffer source, int offset, int length, Runnable released);

    /**
     * Writes {@code count} shorts of {@code values} from {@code offset}, each as 2 bytes in
     * network byte order, with no length in front: what {@code count} calls of a one-value put
     * would write, in one bounds check and one copy.
     *
     * @param values the source
     * @param offset first value
     * @param count number of values
     * @return this buffer
     * @throws IndexOutOfBoundsException if the range is outside {@code values}
     * @throws MessageTooLargeException if full
     * @since 0.5
     */
    MessageBuffer putShorts(short[] values, int offset, int count);

    /**
     * Writes {@code count} shorts of {@code values} from {@code offset}, each as 2 bytes in
     * {@code order}, with no length in front. In the platform's order (little-endian on x86 and
     * ARM) this is a plain copy, where network byte order swaps each value's bytes: for arrays that
     * peers read back with {@link #getShorts(short[], int, int, ByteOrder)} in the same order.
     *
     * @param values the source
     * @param offset first value
     * @param count number of values
     * @param order the byte order of each value in the message
     * @return this buffer
     * @throws IndexOutOfBoundsException if the range is outside {@code values}
     * @throws MessageTooLargeException if full
     * @since 0.6
     */
    MessageBuffer putShorts(short[] values, int offset, int count, ByteOrder order);

    /**
     * Writes {@code count} chars of {@code values} from {@code offset}, each as 2 bytes in
     * network byte order, with no length in front: what {@code count} calls of {@link #putShort}
     * with each value would write, in one bounds check and one copy.
     *
     * @param values the source
     * @param offset first value
     * @param count number of values
     * @return this buffer
     * @throws IndexOutOfBoundsException if the range is outside {@code values}
     * @throws MessageTooLargeException if full
     * @since 0.5
     */
    MessageBuffer putChars(char[] values, int offset, int count);

    /**
     * Writes {@code count} chars of {@code values} from {@code offset}, each as 2 bytes in
     * {@code order}, with no length in front. In the platform's order (little-endian on x86 and
     * ARM) this is a plain copy, where network byte order swaps each value's bytes: for arrays that
     * peers read back with {@link #getChars(char[], int, int, ByteOrder)} in the same order.
     *
     * @param values the source
     * @param offset first value
     * @param count number of values
     * @param order the byte order of each value in the message
     * @return this buffer
     * @throws IndexOutOfBoundsException if the range is outside {@code values}
     * @throws MessageTooLargeException if full
     * @since 0.6
     */
    MessageBuffer putChars(char[] values, int offset, int count, ByteOrder order);

    /**
     * Writes {@code count} ints of {@code values} from {@code offset}, each as 4 bytes in
     * network byte order, with no length in front: what {@code count} calls of a one-value put
     * would write, in one bounds check and one copy.
     *
     * @param values the source
     * @param offset first value
     * @param count number of values
     * @return this buffer
     * @throws IndexOutOfBoundsException if the range is outside {@code values}
     * @throws MessageTooLargeException if full
     * @since 0.5
     */
    MessageBuffer putInts(int[] values, int offset, int count);

    /**
     * Writes {@code count} ints of {@code values} from {@code offset}, each as 4 bytes in
     * {@code order}, with no length in front. In the platform's order (little-endian on x86 and
     * ARM) this is a plain copy, where network byte order swaps each value's bytes: for arrays that
     * peers read back with {@link #getInts(int[], int, int, ByteOrder)} in the same order.
     *
     * @param values the source
     * @param offset first value
     * @param count number of values
     * @param order the byte order of each value in the message
     * @return this buffer
     * @throws IndexOutOfBoundsException if the range is outside {@code values}
     * @throws MessageTooLargeException if full
     * @since 0.6
     */
    MessageBuffer putInts(int[] values, int offset, int count, ByteOrder order);

    /**
     * Writes {@code count} longs of {@code values} from {@code offset}, each as 8 bytes in
     * network byte order, with no length in front: what {@code count} calls of a one-value put
     * would write, in one bounds check and one copy.
     *
     * @param values the source
     * @param offset first value
     * @param count number of values
     * @return this buffer
     * @throws IndexOutOfBoundsException if the range is outside {@code values}
     * @throws MessageTooLargeException if full
     * @since 0.5
     */
    MessageBuffer putLongs(long[] values, int offset, int count);

    /**
     * Writes {@code count} longs of {@code values} from {@code offset}, each as 8 bytes in
     * {@code order}, with no length in front. In the platform's order (little-endian on x86 and
     * ARM) this is a plain copy, where network byte order swaps each value's bytes: for arrays that
     * peers read back with {@link #getLongs(long[], int, int, ByteOrder)} in the same order.
     *
     * @param values the source
     * @param offset first value
     * @param count number of values
     * @param order the byte order of each value in the message
     * @return this buffer
     * @throws IndexOutOfBoundsException if the range is outside {@code values}
     * @throws MessageTooLargeException if full
     * @since 0.6
     */
    MessageBuffer putLongs(long[] values, int offset, int count, ByteOrder order);

    /**
     * Writes {@code count} floats of {@code values} from {@code offset}, each as 4 bytes in
     * network byte order, with no length in front: what {@code count} calls of a one-value put
     * would write, each value's bits as they are, in one bounds check and one copy.
     *
     * @param values the source
     * @param offset first value
     * @param count number of values
     * @return this buffer
     * @throws IndexOutOfBoundsException if the range is outside {@code values}
     * @throws MessageTooLargeException if full
     * @since 0.5
     */
    MessageBuffer putFloats(float[] values, int offset, int count);

    /**
     * Writes {@code count} floats of {@code values} from {@code offset}, each as 4 bytes in
     * {@code order}, with no length in front. In the platform's order (little-endian on x86 and
     * ARM) this is a plain copy, where network byte order swaps each value's bytes: for arrays that
     * peers read back with {@link #getFloats(float[], int, int, ByteOrder)} in the same order.
     *
     * @param values the source
     * @param offset first value
     * @param count number of values
     * @param order the byte order of each value in the message
     * @return this buffer
     * @throws IndexOutOfBoundsException if the range is outside {@code values}
     * @throws MessageTooLargeException if full
     * @since 0.6
     */
    MessageBuffer putFloats(float[] values, int offset, int count, ByteOrder order);

    /**
     * Writes {@code count} doubles of {@code values} from {@code offset}, each as 8 bytes in
     * network byte order, with no length in front: what {@code count} calls of a one-value put
     * would write, each value's bits as they are, in one bounds check and one copy.
     *
     * @param values the source
     * @param offset first value
     * @param count number of values
     * @return this buffer
     * @throws IndexOutOfBoundsException if the range is outside {@code values}
     * @throws MessageTooLargeException if full
     * @since 0.5
     */
    MessageBuffer putDoubles(double[] values, int offset, int count);

    /**
     * Writes {@code count} doubles of {@code values} from {@code offset}, each as 8 bytes in
     * {@code order}, with no length in front. In the platform's order (little-endian on x86 and
     * ARM) this is a plain copy, where network byte order swaps each value's bytes: for arrays that
     * peers read back with {@link #getDoubles(double[], int, int, ByteOrder)} in the same order.
     *
     * @param values the source
     * @param offset first value
     * @param count number of values
     * @param order the byte order of each value in the message
     * @return this buffer
     * @throws IndexOutOfBoundsException if the range is outside {@code values}
     * @throws MessageTooLargeException if full
     * @since 0.6
     */
    MessageBuffer putDoubles(double[] values, int offset, int count, ByteOrder order);

    /**
     * Writes a 32-bit length followed by the UTF-8 bytes of {@code value}.
     *
     * @param value the string
     * @return this buffer
     * @throws MessageTooLargeException if full
     */
    MessageBuffer putString(String value);

    /**
     * Writes a startpoint. Its descriptor tables go to each peer once per connection; after that
     * a startpoint costs a short reference (about 30 bytes per target).
     *
     * @param value the startpoint
     * @return this buffer
     * @throws MessageTooLargeException if full
     */
    MessageBuffer putStartpoint(Startpoint value);

    /** @return the next byte @throws MalformedMessageException if none is left */
    byte getByte();

    /** @return the next byte as a boolean @throws MalformedMessageException if none is left or it is not 0 or 1 */
    boolean getBoolean();

    /** @return the next short @throws MalformedMessageException if fewer than 2 bytes are left */
    short getShort();

    /** @return the next int @throws MalformedMessageException if fewer than 4 bytes are left */
    int getInt();

    /** @return the next long @throws MalformedMessageException if fewer than 8 bytes are left */
    long getLong();

    /** @return the next float @throws MalformedMessageException if fewer than 4 bytes are left */
    float getFloat();

    /** @return the next double @throws MalformedMessageException if fewer than 8 bytes are left */
    double getDouble();

    /**
     * @return bytes written by {@link #putBytes(byte[])}
     * @throws MalformedMessageException if the length is negative or more than what is left
     */
    byte[] getBytes();

    /**
     * Reads {@code length} raw bytes written by {@link #putRaw}.
     *
     * @param target where to copy
     * @param offset first byte of {@code target}
     * @param length number of bytes
     * @throws MalformedMessageException if fewer than {@code length} bytes are left
     */
    void getRaw(byte[] target, int offset, int length);

    /**
     * Reads {@code length} raw bytes written by {@link #putRaw} into {@code target} from index
     * {@code offset}. The target's position, limit and order are neither used nor changed.
     *
     * @param target where to copy; writable
     * @param offset index of the first byte in {@code target}
     * @param length number of bytes
     * @throws IndexOutOfBoundsException if the bytes do not all fit within {@code target}'s capacity
     * @throws java.nio.ReadOnlyBufferException if {@code target} is read-only
     * @throws MalformedMessageException if fewer than {@code length} bytes are left
     * @since 0.7
     */
    void getRaw(ByteBuffer target, int offset, int length);

    /**
     * Reads {@code count} shorts written by {@link #putShorts} (or by as many one-value puts).
     *
     * @param target where to copy
     * @param offset first value of {@code target}
     * @param count number of values
     * @throws IndexOutOfBoundsException if the range is outside {@code target}
     * @throws MalformedMessageException if fewer than {@code 2 * count} bytes are left
     * @since 0.5
     */
    void getShorts(short[] target, int offset, int count);

    /**
     * Reads {@code count} shorts written by {@link #putShorts(short[], int, int, ByteOrder)} in
     * {@code order}.
     *
     * @param target where to copy
     * @param offset first value of {@code target}
     * @param count number of values
     * @param order the byte order of each value in the message
     * @throws IndexOutOfBoundsException if the range is outside {@code target}
     * @throws MalformedMessageException if fewer than {@code 2 * count} bytes are left
     * @since 0.6
     */
    void getShorts(short[] target, int offset, int count, ByteOrder order);

    /**
     * Reads {@code count} chars written by {@link #putChars} (or by as many {@link #putShort}s).
     *
     * @param target where to copy
     * @param offset first value of {@code target}
     * @param count number of values
     * @throws IndexOutOfBoundsException if the range is outside {@code target}
     * @throws MalformedMessageException if fewer than {@code 2 * count} bytes are left
     * @since 0.5
     */
    void getChars(char[] target, int offset, int count);

    /**
     * Reads {@code count} chars written by {@link #putChars(char[], int, int, ByteOrder)} in
     * {@code order}.
     *
     * @param target where to copy
     * @param offset first value of {@code target}
     * @param count number of values
     * @param order the byte order of each value in the message
     * @throws IndexOutOfBoundsException if the range is outside {@code target}
     * @throws MalformedMessageException if fewer than {@code 2 * count} bytes are left
     * @since 0.6
     */
    void getChars(char[] target, int offset, int count, ByteOrder order);

    /**
     * Reads {@code count} ints written by {@link #putInts} (or by as many one-value puts).
     *
     * @param target where to copy
     * @param offset first value of {@code target}
     * @param count number of values
     * @throws IndexOutOfBoundsException if the range is outside {@code target}
     * @throws MalformedMessageException if fewer than {@code 4 * count} bytes are left
     * @since 0.5
     */
    void getInts(int[] target, int offset, int count);

    /**
     * Reads {@code count} ints written by {@link #putInts(int[], int, int, ByteOrder)} in
     * {@code order}.
     *
     * @param target where to copy
     * @param offset first value of {@code target}
     * @param count number of values
     * @param order the byte order of each value in the message
     * @throws IndexOutOfBoundsException if the range is outside {@code target}
     * @throws MalformedMessageException if fewer than {@code 4 * count} bytes are left
     * @since 0.6
     */
    void getInts(int[] target, int offset, int count, ByteOrder order);

    /**
     * Reads {@code count} longs written by {@link #putLongs} (or by as many one-value puts).
     *
     * @param target where to copy
     * @param offset first value of {@code target}
     * @param count number of values
     * @throws IndexOutOfBoundsException if the range is outside {@code target}
     * @throws MalformedMessageException if fewer than {@code 8 * count} bytes are left
     * @since 0.5
     */
    void getLongs(long[] target, int offset, int count);

    /**
     * Reads {@code count} longs written by {@link #putLongs(long[], int, int, ByteOrder)} in
     * {@code order}.
     *
     * @param target where to copy
     * @param offset first value of {@code target}
     * @param count number of values
     * @param order the byte order of each value in the message
     * @throws IndexOutOfBoundsException if the range is outside {@code target}
     * @throws MalformedMessageException if fewer than {@code 8 * count} bytes are left
     * @since 0.6
     */
    void getLongs(long[] target, int offset, int count, ByteOrder order);

    /**
     * Reads {@code count} floats written by {@link #putFloats} (or by as many one-value puts).
     *
     * @param target where to copy
     * @param offset first value of {@code target}
     * @param count number of values
     * @throws IndexOutOfBoundsException if the range is outside {@code target}
     * @throws MalformedMessageException if fewer than {@code 4 * count} bytes are left
     * @since 0.5
     */
    void getFloats(float[] target, int offset, int count);

    /**
     * Reads {@code count} floats written by {@link #putFloats(float[], int, int, ByteOrder)} in
     * {@code order}.
     *
     * @param target where to copy
     * @param offset first value of {@code target}
     * @param count number of values
     * @param order the byte order of each value in the message
     * @throws IndexOutOfBoundsException if the range is outside {@code target}
     * @throws MalformedMessageException if fewer than {@code 4 * count} bytes are left
     * @since 0.6
     */
    void getFloats(float[] target, int offset, int count, ByteOrder order);

    /**
     * Reads {@code count} doubles written by {@link #putDoubles} (or by as many one-value puts).
     *
     * @param target where to copy
     * @param offset first value of {@code target}
     * @param count number of values
     * @throws IndexOutOfBoundsException if the range is outside {@code target}
     * @throws MalformedMessageException if fewer than {@code 8 * count} bytes are left
     * @since 0.5
     */
    void getDoubles(double[] target, int offset, int count);

    /**
     * Reads {@code count} doubles written by {@link #putDoubles(double[], int, int, ByteOrder)} in
     * {@code order}.
     *
     * @param target where to copy
     * @param offset first value of {@code target}
     * @param count number of values
     * @param order the byte order of each value in the message
     * @throws IndexOutOfBoundsException if the range is outside {@code target}
     * @throws MalformedMessageException if fewer than {@code 8 * count} bytes are left
     * @since 0.6
     */
    void getDoubles(double[] target, int offset, int count, ByteOrder order);

    /**
     * @return a string written by {@link #putString(String)}
     * @throws MalformedMessageException if the length is bad or the bytes are not UTF-8
     */
    String getString();

    /**
     * @return a startpoint written by {@link #putStartpoint(Startpoint)}, usable in this context
     * @throws MalformedMessageException if the bytes are not a startpoint, or refer to a table
     *     this context was never sent
     */
    Startpoint getStartpoint();
}
