package mpi;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.comm.Attributes;
import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.op.Element;
import java.nio.Buffer;

/**
 * A datatype ({@code MPI_Datatype}): the basic ones in {@link MPI}, and derived ones made from
 * them, which must be {@link #commit committed} before they are used to communicate.
 *
 * <p>As in the Open MPI bindings, a datatype has a base type, the Java primitive of the buffers it
 * describes, and {@link #getSize}, {@link #getExtent} and {@link #getLb} count in elements of the
 * base type; the byte-based constructors ({@link #createHVector}, {@link #createHIndexed},
 * {@link #createStruct}, {@link #createResized}) take bytes. Struct types have base type
 * {@code BYTE} and describe byte buffers, read and written through {@link Struct}.
 */
public final class Datatype implements Freeable, Cloneable {

    static final int NULL = 0;
    static final int BYTE = 1;
    static final int CHAR = 2;
    static final int SHORT = 3;
    static final int BOOLEAN = 4;
    static final int INT = 5;
    static final int LONG = 6;
    static final int FLOAT = 7;
    static final int DOUBLE = 8;
    static final int PACKED = 9;
    static final int INT2 = 10;
    static final int SHORT_INT = 11;
    static final int LONG_INT = 12;
    static final int FLOAT_INT = 13;
    static final int DOUBLE_INT = 14;
    static final int FLOAT_COMPLEX = 15;
    static final int DOUBLE_COMPLEX = 16;

    private static final String[] NAMES = {"MPI_DATATYPE_NULL", "MPI_BYTE", "MPI_CHAR", "MPI_SHORT", "MPI_BOOLEAN",
        "MPI_INT", "MPI_LONG", "MPI_FLOAT", "MPI_DOUBLE", "MPI_PACKED", "MPI_2INT", "MPI_SHORT_INT", "MPI_LONG_INT",
        "MPI_FLOAT_INT", "MPI_DOUBLE_INT", "MPI_C_FLOAT_COMPLEX", "MPI_C_DOUBLE_COMPLEX"};

    /** The base type: which Java primitive the buffers hold. */
    final int baseType;
    /** Bytes of one element of the base type. */
    final int baseSize;
    private final Typemap map;
    /** The predefined type it is made of, for reductions. */
    final Element element;
    private final boolean predefined;
    private final Attributes attributes;
    private volatile boolean committed;
    private volatile boolean freed;
    private volatile String name;

    private Datatype(int baseType, Typemap map, Element element, boolean predefined, boolean committed, String name,
                     Attributes attributes) {
        this.baseType = baseType;
        this.baseSize = baseSizeOf(baseType);
        this.map = map;
        this.element = element;
        this.predefined = predefined;
        this.committed = committed;
        this.name = name;
        this.attributes = attributes;
    }

    static Datatype nullType() {
        return new Datatype(NULL, null, Element.MIXED, true, false, NAMES[NULL], new Attributes());
    }

    static Datatype basic(int code) {
        Typemap map = switch (code) {
            case BYTE, PACKED -> Typemap.basic(Kind.BYTE);
            case CHAR -> Typemap.basic(Kind.CHAR);
            case SHORT -> Typemap.basic(Kind.SHORT);
            case BOOLEAN -> Typemap.basic(Kind.BOOLEAN);
            case INT -> Typemap.basic(Kind.INT);
            case LONG -> Typemap.basic(Kind.LONG);
            case FLOAT -> Typemap.basic(Kind.FLOAT);
            case DOUBLE -> Typemap.basic(Kind.DOUBLE);
            case INT2 -> Typemap.pair(Kind.INT, Kind.INT);
            case SHORT_INT -> Typemap.pair(Kind.SHORT, Kind.INT);
            case LONG_INT -> Typemap.pair(Kind.LONG, Kind.INT);
            case FLOAT_INT -> Typemap.pair(Kind.FLOAT, Kind.INT);
            case DOUBLE_INT -> Typemap.pair(Kind.DOUBLE, Kind.INT);
            case FLOAT_COMPLEX -> Typemap.pair(Kind.FLOAT, Kind.FLOAT);
            case DOUBLE_COMPLEX -> Typemap.pair(Kind.DOUBLE, Kind.DOUBLE);
            default -> throw new IllegalArgumentException("no basic datatype " + code);
        };
        int base = switch (code) {
            case INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT -> BYTE;
            case FLOAT_COMPLEX -> FLOAT;
            case DOUBLE_COMPLEX -> DOUBLE;
            default -> code;
        };
        return new Datatype(base, map, elementOf(code), true, true, NAMES[code], new Attributes());
    }

    private static Element elementOf(int code) {
        return switch (code) {
            case BYTE -> Element.BYTE;
            case CHAR -> Element.CHAR;
            case SHORT -> Element.SHORT;
            case BOOLEAN -> Element.BOOLEAN;
            case INT -> Element.INT;
            case LONG -> Element.LONG;
            case FLOAT -> Element.FLOAT;
            case DOUBLE -> Element.DOUBLE;
            case PACKED -> Element.PACKED;
            case INT2 -> Element.INT2;
            case SHORT_INT -> Element.SHORT_INT;
            case LONG_INT -> Element.LONG_INT;
            case FLOAT_INT -> Element.FLOAT_INT;
            case DOUBLE_INT -> Element.DOUBLE_INT;
            case FLOAT_COMPLEX -> Element.FLOAT_COMPLEX;
            default -> Element.DOUBLE_COMPLEX;
        };
    }

    private static int baseSizeOf(int base) {
        return switch (base) {
            case CHAR, SHORT -> 2;
            case INT, FLOAT -> 4;
            case LONG, DOUBLE -> 8;
            default -> 1;
        };
    }

    private Datatype derived(Typemap derived) {
        return derived(derived, element);
    }

    private Datatype derived(Typemap derived, Element madeOf) {
        return new Datatype(baseType, derived, madeOf, false, false, "", new Attributes());
    }

    /**
     * @return the layout of {@code type}, which must be committed and not freed
     * @throws MpiError {@code ERR_TYPE} if it cannot be used to communicate
     */
    static Typemap use(Datatype type) {
        if (type == null) {
            throw new MpiError(ErrorClass.ERR_TYPE, "the datatype is null");
        }
        if (type.map == null || type.freed) {
            throw new MpiError(ErrorClass.ERR_TYPE, "the datatype is MPI.DATATYPE_NULL or was freed");
        }
        if (!type.committed) {
            throw new MpiError(ErrorClass.ERR_TYPE, "the datatype " + type.describe() + " is not committed; call "
                + "commit() before communicating with it");
        }
        return type.map;
    }

    /** @return the layout of {@code type}, committed or not, for building another type */
    static Typemap layout(Datatype type) {
        if (type == null || type.map == null || type.freed) {
            throw new MpiError(ErrorClass.ERR_TYPE, "a datatype to build from is null, MPI.DATATYPE_NULL or freed");
        }
        return type.map;
    }

    private Typemap map() throws MPIException {
        MPI.check();
        try {
            return layout(this);
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    private String describe() {
        return name.isEmpty() ? "(" + map + ")" : name;
    }

    /** @return the lower bound, in elements of the base type ({@code MPI_TYPE_GET_EXTENT}) */
    public int getLb() throws MPIException {
        return (int) (map().lb() / baseSize);
    }

    /** @return the extent, in elements of the base type ({@code MPI_TYPE_GET_EXTENT}) */
    public int getExtent() throws MPIException {
        return (int) (map().extent() / baseSize);
    }

    /** @return the true lower bound, in elements of the base type ({@code MPI_TYPE_GET_TRUE_EXTENT}) */
    public int getTrueLb() throws MPIException {
        return (int) (map().trueLb() / baseSize);
    }

    /** @return the true extent, in elements of the base type ({@code MPI_TYPE_GET_TRUE_EXTENT}) */
    public int getTrueExtent() throws MPIException {
        return (int) (map().trueExtent() / baseSize);
    }

    /** @return the data the type holds, in elements of the base type ({@code MPI_TYPE_SIZE}) */
    public int getSize() throws MPIException {
        return (int) (map().size() / baseSize);
    }

    /** Commits the type, so it can communicate ({@code MPI_TYPE_COMMIT}). */
    public void commit() throws MPIException {
        map();
        committed = true;
    }

    /**
     * Frees the type ({@code MPI_TYPE_FREE}); types made from it are not affected.
     *
     * @throws MPIException {@code ERR_TYPE} for a predefined type
     */
    @Override
    public void free() throws MPIException {
        map();
        if (predefined) {
            throw Errors.raise(new MpiError(ErrorClass.ERR_TYPE, name + " is predefined and cannot be freed"));
        }
        freed = true;
    }

    /** @return whether this is {@code MPI.DATATYPE_NULL} or was freed */
    public boolean isNull() {
        return map == null || freed;
    }

    /** Same as {@link #dup}, for {@link Cloneable}; an error becomes a {@link RuntimeException}. */
    @Override
    public Datatype clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /** @return a copy, committed if this is, with copies of the attributes ({@code MPI_TYPE_DUP}) */
    public Datatype dup() throws MPIException {
        Typemap m = map();
        return new Datatype(baseType, m, element, false, committed, "", attributes.copy());
    }

    /** @return {@code count} copies of {@code oldType} one after another ({@code MPI_TYPE_CONTIGUOUS}) */
    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
        MPI.check();
        try {
            nonNegative(count, "count");
            return oldType.derived(Typemap.contiguous(count, layout(oldType)));
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /**
     * @param stride elements of {@code oldType} from the start of one block to the next
     * @return {@code count} blocks of {@code blockLength} elements ({@code MPI_TYPE_VECTOR})
     */
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType)
            throws MPIException {
        MPI.check();
        try {
            nonNegative(count, "count");
            nonNegative(blockLength, "block length");
            Typemap old = layout(oldType);
            return oldType.derived(Typemap.hvector(count, blockLength, stride * old.extent(), old));
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /**
     * @param stride bytes from the start of one block to the next
     * @return {@code count} blocks of {@code blockLength} elements ({@code MPI_TYPE_CREATE_HVECTOR})
     */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType)
            throws MPIException {
        MPI.check();
        try {
            nonNegative(count, "count");
            nonNegative(blockLength, "block length");
            return oldType.derived(Typemap.hvector(count, blockLength, stride, layout(oldType)));
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /**
     * @param displacements each block's start, in elements of {@code oldType}
     * @return blocks of {@code blockLengths[i]} elements ({@code MPI_TYPE_INDEXED})
     */
    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        MPI.check();
        try {
            Typemap old = layout(oldType);
            return oldType.derived(Typemap.hindexed(lengths(blockLengths, displacements.length),
                scaled(displacements, old.extent()), old));
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /**
     * @param displacements each block's start, in bytes
     * @return blocks of {@code blockLengths[i]} elements ({@code MPI_TYPE_CREATE_HINDEXED})
     */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        MPI.check();
        try {
            return oldType.derived(Typemap.hindexed(lengths(blockLengths, displacements.length),
                scaled(displacements, 1), layout(oldType)));
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /**
     * Blocks of one length at displacements in elements of {@code oldType}
     * ({@code MPI_TYPE_CREATE_INDEXED_BLOCK}). Not in the Open MPI Java bindings; an addition of
     * this bundle, named after the MPI operation.
     */
    public static Datatype createIndexedBlock(int blockLength, int[] displacements, Datatype oldType)
            throws MPIException {
        MPI.check();
        try {
            nonNegative(blockLength, "block length");
            int[] lengths = new int[displacements.length];
            java.util.Arrays.fill(lengths, blockLength);
            Typemap old = layout(oldType);
            return oldType.derived(Typemap.hindexed(lengths, scaled(displacements, old.extent()), old));
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /**
     * The most general constructor ({@code MPI_TYPE_CREATE_STRUCT}): blocks of different types at
     * byte displacements. The new type's base type is {@code BYTE}; its extent is padded to the
     * alignment of its largest primitive, as a C struct's is.
     */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types)
            throws MPIException {
        MPI.check();
        try {
            if (types.length != blockLengths.length) {
                throw Errors.argument("createStruct: " + blockLengths.length + " block lengths but " + types.length
                    + " types");
            }
            Typemap[] maps = new Typemap[types.length];
            java.util.List<Element> parts = new java.util.ArrayList<>();
            for (int i = 0; i < types.length; i++) {
                maps[i] = layout(types[i]);
                if (blockLengths[i] != 0) {
                    parts.add(types[i].element);
                }
            }
            return MPI.BYTE.derived(Typemap.struct(lengths(blockLengths, displacements.length),
                scaled(displacements, 1), maps), Element.of(parts.toArray(Element[]::new)));
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /**
     * @param lb the new lower bound, in bytes
     * @param extent the new extent, in bytes
     * @return {@code oldType} with these bounds ({@code MPI_TYPE_CREATE_RESIZED})
     */
    public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
        MPI.check();
        try {
            return oldType.derived(Typemap.resized(layout(oldType), lb, extent));
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /** Names the type ({@code MPI_TYPE_SET_NAME}). */
    public void setName(String name) throws MPIException {
        map();
        if (name == null || name.length() > MPI.MAX_OBJECT_NAME) {
            throw Errors.raise(Errors.argument("a datatype name must be at most " + MPI.MAX_OBJECT_NAME + " characters"));
        }
        this.name = name;
    }

    /** @return the type's name ({@code MPI_TYPE_GET_NAME}) */
    public String getName() throws MPIException {
        map();
        return name;
    }

    /** @return a new attribute key ({@code MPI_TYPE_CREATE_KEYVAL}) */
    public static int createKeyval() throws MPIException {
        return MPI.session().world().keyvals().create();
    }

    /** Frees an attribute key ({@code MPI_TYPE_FREE_KEYVAL}). */
    public static void freeKeyval(int keyval) throws MPIException {
        try {
            MPI.session().world().keyvals().free(keyval);
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /** Caches a copy of {@code value} under {@code keyval} ({@code MPI_TYPE_SET_ATTR}). */
    public void setAttr(int keyval, Object value) throws MPIException {
        try {
            map();
            MPI.session().world().keyvals().check(keyval);
            attributes.set(keyval, value);
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /** @return a copy of the value under {@code keyval}, or {@code null} ({@code MPI_TYPE_GET_ATTR}) */
    public Object getAttr(int keyval) throws MPIException {
        try {
            map();
            MPI.session().world().keyvals().check(keyval);
            return attributes.get(keyval);
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /** Removes the value under {@code keyval} ({@code MPI_TYPE_DELETE_ATTR}). */
    public void deleteAttr(int keyval) throws MPIException {
        try {
            map();
            MPI.session().world().keyvals().check(keyval);
            attributes.delete(keyval);
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /**
     * @param buffer a heap buffer
     * @return where its data starts in its array, in bytes of the base type
     */
    protected int getOffset(Object buffer) {
        return baseSize * ((Buffer) buffer).arrayOffset();
    }

    private static void nonNegative(int value, String what) {
        if (value < 0) {
            throw new MpiError(ErrorClass.ERR_COUNT, "a datatype's " + what + " of " + value + " is negative");
        }
    }

    private static int[] lengths(int[] blockLengths, int displacements) {
        if (blockLengths.length != displacements) {
            throw Errors.argument(blockLengths.length + " block lengths but " + displacements + " displacements");
        }
        for (int b : blockLengths) {
            nonNegative(b, "block length");
        }
        return blockLengths;
    }

    private static long[] scaled(int[] displacements, long unit) {
        long[] bytes = new long[displacements.length];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = displacements[i] * unit;
        }
        return bytes;
    }

    @Override
    public String toString() {
        return name.isEmpty() ? "Datatype" + describe() : name;
    }
}
