package mpi;

import java.nio.Buffer;

/**
 * A file for MPI I/O ({@code MPI_File}). MPI I/O is not implemented by this bundle: every
 * constructor and method throws {@link MPIException} naming its call.
 */
public final class File {

    /** {@code MPI_File_open}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public File(Comm comm, String filename, int amode) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_open");
    }

    /** {@code MPI_File_open}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public File(Comm comm, String filename, int amode, Info info) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_open");
    }

    /** {@code MPI_File_close}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void close() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_close");
    }

    /** {@code MPI_File_delete}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public static void delete(String filename) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_delete");
    }

    /** {@code MPI_File_delete}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public static void delete(String filename, Info info) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_delete");
    }

    /** {@code MPI_File_set_size}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void setSize(long size) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_set_size");
    }

    /** {@code MPI_File_preallocate}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void preallocate(long size) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_preallocate");
    }

    /** {@code MPI_File_get_size}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public long getSize() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_get_size");
    }

    /** {@code MPI_File_get_group}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Group getGroup() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_get_group");
    }

    /** {@code MPI_File_get_amode}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public int getAMode() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_get_amode");
    }

    /** {@code MPI_File_set_info}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void setInfo(Info info) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_set_info");
    }

    /** {@code MPI_File_get_info}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Info getInfo() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_get_info");
    }

    /** {@code MPI_File_set_view}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_set_view");
    }

    /** {@code MPI_File_set_view}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep, Info info) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_set_view");
    }

    /** {@code MPI_File_get_view}: not implemented by this bundle; throws {@link UnsupportedOperationException} naming it. */
    public FileView getView() {
        throw new UnsupportedOperationException(Errors.notImplemented("MPI_File_get_view").getMessage());
    }

    /** {@code MPI_File_read_at}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status readAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_read_at");
    }

    /** {@code MPI_File_read_at_all}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status readAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_read_at_all");
    }

    /** {@code MPI_File_write_at}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status writeAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_write_at");
    }

    /** {@code MPI_File_write_at_all}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status writeAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_write_at_all");
    }

    /** {@code MPI_File_iread_at}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Request iReadAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_iread_at");
    }

    /** {@code MPI_File_iread_at_all}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Request iReadAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_iread_at_all");
    }

    /** {@code MPI_File_iwrite_at}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Request iWriteAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_iwrite_at");
    }

    /** {@code MPI_File_iwrite_at_all}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Request iWriteAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_iwrite_at_all");
    }

    /** {@code MPI_File_read}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status read(Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_read");
    }

    /** {@code MPI_File_read_all}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status readAll(Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_read_all");
    }

    /** {@code MPI_File_write}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status write(Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_write");
    }

    /** {@code MPI_File_write_all}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status writeAll(Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_write_all");
    }

    /** {@code MPI_File_iread}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Request iRead(Buffer buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_iread");
    }

    /** {@code MPI_File_iread_all}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Request iReadAll(Buffer buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_iread_all");
    }

    /** {@code MPI_File_iwrite}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Request iWrite(Buffer buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_iwrite");
    }

    /** {@code MPI_File_iwrite_all}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Request iWriteAll(Buffer buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_iwrite_all");
    }

    /** {@code MPI_File_seek}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void seek(long offset, int whence) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_seek");
    }

    /** {@code MPI_File_get_position}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public long getPosition() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_get_position");
    }

    /** {@code MPI_File_get_byte_offset}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public long getByteOffset(long offset) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_get_byte_offset");
    }

    /** {@code MPI_File_read_shared}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status readShared(Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_read_shared");
    }

    /** {@code MPI_File_write_shared}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status writeShared(Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_write_shared");
    }

    /** {@code MPI_File_iread_shared}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Request iReadShared(Buffer buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_iread_shared");
    }

    /** {@code MPI_File_iwrite_shared}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Request iWriteShared(Buffer buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_iwrite_shared");
    }

    /** {@code MPI_File_read_ordered}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status readOrdered(Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_read_ordered");
    }

    /** {@code MPI_File_write_ordered}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status writeOrdered(Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_write_ordered");
    }

    /** {@code MPI_File_seek_shared}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void seekShared(long offset, int whence) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_seek_shared");
    }

    /** {@code MPI_File_get_position_shared}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public long getPositionShared() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_get_position_shared");
    }

    /** {@code MPI_File_read_at_all_begin}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void readAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_read_at_all_begin");
    }

    /** {@code MPI_File_read_at_all_end}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status readAtAllEnd(Object buf) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_read_at_all_end");
    }

    /** {@code MPI_File_write_at_all_begin}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void writeAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_write_at_all_begin");
    }

    /** {@code MPI_File_write_at_all_end}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status writeAtAllEnd(Object buf) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_write_at_all_end");
    }

    /** {@code MPI_File_read_all_begin}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void readAllBegin(Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_read_all_begin");
    }

    /** {@code MPI_File_read_all_end}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status readAllEnd(Object buf) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_read_all_end");
    }

    /** {@code MPI_File_write_all_begin}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void writeAllBegin(Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_write_all_begin");
    }

    /** {@code MPI_File_write_all_end}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status writeAllEnd(Object buf) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_write_all_end");
    }

    /** {@code MPI_File_read_ordered_begin}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void readOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_read_ordered_begin");
    }

    /** {@code MPI_File_read_ordered_end}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status readOrderedEnd(Object buf) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_read_ordered_end");
    }

    /** {@code MPI_File_write_ordered_begin}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void writeOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_write_ordered_begin");
    }

    /** {@code MPI_File_write_ordered_end}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Status writeOrderedEnd(Object buf) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_write_ordered_end");
    }

    /** {@code MPI_File_get_type_extent}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public int getTypeExtent(Datatype type) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_get_type_extent");
    }

    /** {@code MPI_File_set_atomicity}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void setAtomicity(boolean atomicity) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_set_atomicity");
    }

    /** {@code MPI_File_get_atomicity}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public boolean getAtomicity() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_get_atomicity");
    }

    /** {@code MPI_File_sync}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void sync() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_sync");
    }

    /** {@code MPI_File_set_errhandler}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void setErrhandler(Errhandler errhandler) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_set_errhandler");
    }

    /** {@code MPI_File_get_errhandler}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Errhandler getErrhandler() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_get_errhandler");
    }

    /** {@code MPI_File_call_errhandler}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public void callErrhandler(int errorCode) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_File_call_errhandler");
    }
}
