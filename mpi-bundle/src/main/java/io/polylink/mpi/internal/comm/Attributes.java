package io.polylink.mpi.internal.comm;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.util.HashMap;
import java.util.Map;

/**
 * The attributes cached on a communicator or a datatype. As in the Open MPI bindings a value is
 * kept serialized: {@code get} returns a copy, and a duplicated object carries copies. Values never
 * leave this process. Thread-safe.
 */
public final class Attributes {

    private final Map<Integer, byte[]> values = new HashMap<>();

    /** @throws MpiError {@code ERR_ARG} if {@code value} cannot be serialized */
    public void set(int keyval, Object value) {
        byte[] bytes = serialize(value);
        synchronized (this) {
            values.put(keyval, bytes);
        }
    }

    /** @return a copy of the value, or {@code null} if none is set */
    public Object get(int keyval) {
        byte[] bytes;
        synchronized (this) {
            bytes = values.get(keyval);
        }
        return bytes == null ? null : deserialize(bytes);
    }

    public synchronized void delete(int keyval) {
        values.remove(keyval);
    }

    /** @return a copy of every attribute, for a duplicate */
    public synchronized Attributes copy() {
        Attributes c = new Attributes();
        c.values.putAll(values);
        return c;
    }

    private static byte[] serialize(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new MpiError(ErrorClass.ERR_ARG, "an attribute value is kept as a serialized copy, and "
                + value.getClass().getName() + " cannot be serialized: " + e, e);
        }
        return bytes.toByteArray();
    }

    private static Object deserialize(byte[] bytes) {
        try (ObjectInputStream in = new ApplicationObjectStream(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new MpiError(ErrorClass.ERR_INTERN, "an attribute value could not be read back: " + e, e);
        }
    }

    /**
     * Finds a value's classes through the calling thread's context class loader first: in a
     * framework this bundle's own loader cannot see the application's classes.
     */
    private static final class ApplicationObjectStream extends ObjectInputStream {

        ApplicationObjectStream(ByteArrayInputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            if (loader != null) {
                try {
                    return Class.forName(desc.getName(), false, loader);
                } catch (ClassNotFoundException e) {
                    // a class of the platform or of this bundle: the default finds it
                }
            }
            return super.resolveClass(desc);
        }
    }
}
