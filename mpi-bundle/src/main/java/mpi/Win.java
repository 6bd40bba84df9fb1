package mpi;

import java.nio.Buffer;

/**
 * A window of memory for one-sided communication ({@code MPI_Win}). One-sided communication is
 * not implemented by this bundle: every constructor and method throws {@link MPIException} naming
 * its call.
 */
public final class Win implements Freeable {

    /** {@code MPI_WIN_NULL}'s handle value in the Open MPI bindings. */
    public static final int WIN_NULL = 0;
    /** Window memory private to the process ({@code MPI_WIN_FLAVOR_CREATE}). */
    public static final int FLAVOR_PRIVATE = 0;
    /** Window memory shared between processes of a node ({@code MPI_WIN_FLAVOR_SHARED}). */
    public static final int FLAVOR_SHARED = 1;

    /** {@code MPI_Win_create}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_create");
    }

    /** {@code MPI_Win_allocate}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Win(int size, int dispUnit, Info info, Comm comm, Buffer base, int flavor) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_allocate");
    }

    /** {@code MPI_Win_create_dynamic}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Win(Info info, Comm comm) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_create_dynamic");
    }

    /** {@code MPI_Win_attach}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void attach(Buffer base, int size) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_attach");
    }

    /** {@code MPI_Win_detach}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void detach(Buffer base) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_detach");
    }

    /** {@code MPI_Win_get_group}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Group getGroup() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_get_group");
    }

    /** {@code MPI_Put}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void put(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount,
            Datatype targetType) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Put");
    }

    /** {@code MPI_Get}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void get(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount,
            Datatype targetType) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Get");
    }

    /** {@code MPI_Accumulate}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void accumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType, Op op) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Accumulate");
    }

    /** {@code MPI_Win_fence}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void fence(int assertion) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_fence");
    }

    /** {@code MPI_Win_start}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void start(Group group, int assertion) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_start");
    }

    /** {@code MPI_Win_complete}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void complete() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_complete");
    }

    /** {@code MPI_Win_post}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void post(Group group, int assertion) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_post");
    }

    /** {@code MPI_Win_wait}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void waitFor() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_wait");
    }

    /** {@code MPI_Win_test}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public boolean test() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_test");
    }

    /** {@code MPI_Win_lock}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void lock(int lockType, int rank, int assertion) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_lock");
    }

    /** {@code MPI_Win_unlock}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void unlock(int rank) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_unlock");
    }

    /** {@code MPI_Win_set_errhandler}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void setErrhandler(Errhandler errhandler) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_set_errhandler");
    }

    /** {@code MPI_Win_get_errhandler}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Errhandler getErrhandler() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_get_errhandler");
    }

    /** {@code MPI_Win_call_errhandler}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void callErrhandler(int errorCode) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_call_errhandler");
    }

    /** {@code MPI_Win_create_keyval}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public static int createKeyval() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_create_keyval");
    }

    /** {@code MPI_Win_free_keyval}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public static void freeKeyval(int keyval) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_free_keyval");
    }

    /** {@code MPI_Win_set_attr}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void setAttr(int keyval, Object value) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_set_attr");
    }

    /** {@code MPI_Win_get_attr}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Object getAttr(int keyval) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_get_attr");
    }

    /** {@code MPI_Win_delete_attr}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void deleteAttr(int keyval) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_delete_attr");
    }

    /** {@code MPI_Win_free}: not implemented by this bundle; throws {@link MPIException} naming it. */
    @Override
    public void free() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_free");
    }

    /** {@code MPI_Win_get_info}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Info getInfo() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_get_info");
    }

    /** {@code MPI_Win_set_info}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void setInfo(Info info) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_set_info");
    }

    /** {@code MPI_Rput}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request rPut(Buffer origin_addr, int origin_count, Datatype origin_datatype, int target_rank,
            int target_disp, int target_count, Datatype target_datatype) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Rput");
    }

    /** {@code MPI_Rget}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request rGet(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Rget");
    }

    /** {@code MPI_Raccumulate}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Request rAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType, Op op) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Raccumulate");
    }

    /** {@code MPI_Get_accumulate}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void getAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount,
            Datatype resultType, int targetRank, int targetDisp, int targetCount, Datatype targetType, Op op)
           throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Get_accumulate");
    }

    /** {@code MPI_Rget_accumulate}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Request rGetAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr,
            int resultCount, Datatype resultType, int targetRank, int targetDisp, int targetCount,
            Datatype targetType, Op op) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Rget_accumulate");
    }

    /** {@code MPI_Win_lock_all}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void lockAll(int assertion) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_lock_all");
    }

    /** {@code MPI_Win_unlock_all}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void unlockAll() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_unlock_all");
    }

    /** {@code MPI_Win_sync}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void sync() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_sync");
    }

    /** {@code MPI_Win_flush}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void flush(int targetRank) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_flush");
    }

    /** {@code MPI_Win_flush_all}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void flushAll() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_flush_all");
    }

    /** {@code MPI_Compare_and_swap}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void compareAndSwap(Buffer origin, Buffer compareAddr, Buffer resultAddr, Datatype targetType,
            int targetRank, int targetDisp) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Compare_and_swap");
    }

    /** {@code MPI_Fetch_and_op}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void fetchAndOp(Buffer origin, Buffer resultAddr, Datatype dataType, int targetRank, int targetDisp,
            Op op) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Fetch_and_op");
    }

    /** {@code MPI_Win_flush_local}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void flushLocal(int targetRank) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_flush_local");
    }

    /** {@code MPI_Win_flush_local_all}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void flushLocalAll() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_flush_local_all");
    }

    /** {@code MPI_Win_get_name}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public String getName() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_get_name");
    }

    /** {@code MPI_Win_set_name}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void setName(String name) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Win_set_name");
    }
}
