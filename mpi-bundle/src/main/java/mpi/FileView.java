package mpi;

/** A file view ({@link File#getView}); files are not implemented by this bundle. */
public final class FileView {

    private final long disp;
    private final Datatype etype;
    private final Datatype filetype;
    private final String datarep;

    /**
     * @param disp the displacement
     * @param etype the elementary datatype
     * @param filetype the file type
     * @param datarep the data representation
     */
    public FileView(long disp, Datatype etype, Datatype filetype, String datarep) {
        this.disp = disp;
        this.etype = etype;
        this.filetype = filetype;
        this.datarep = datarep;
    }

    /** @return the displacement */
    public long getDisp() {
        return disp;
    }

    /** @return the elementary datatype */
    public Datatype getEType() {
        return etype;
    }

    /** @return the file type */
    public Datatype getFileType() {
        return filetype;
    }

    /** @return the data representation */
    public String getDataRep() {
        return datarep;
    }
}
