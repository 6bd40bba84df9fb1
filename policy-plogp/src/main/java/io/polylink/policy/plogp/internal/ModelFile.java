package io.polylink.policy.plogp.internal;

import io.polylink.plogp.ModelDatabase;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Objects;

/**
 * The model database one file holds, read again whenever the file's time or size changes, so a
 * measurement written by {@code bin/polylink plogp} takes effect at the links' next selection. A
 * file that is missing or wrong gives no models (every link then goes by table order), and is
 * reported once per change. Any thread.
 */
final class ModelFile {

    private static final Logger LOG = System.getLogger("io.polylink.policy.plogp");

    /** What the file held when last read: its time and size say whether to read it again. */
    private record Read(FileTime modified, long size, ModelDatabase models, String problem) {}

    /** Before the first read: unlike any file, present or not. */
    private static final Read NOTHING = new Read(null, -3, ModelDatabase.EMPTY, null);

    private final Path path;
    private volatile Read read = NOTHING;

    ModelFile(Path path) {
        this.path = path;
    }

    Path path() {
        return path;
    }

    /** @return the models the file holds now, or none if it is missing or cannot be read */
    ModelDatabase models() {
        Read last = read;
        FileTime modified;
        long size;
        try {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
            modified = attributes.lastModifiedTime();
            size = attributes.size();
        } catch (NoSuchFileException e) {
            return changed(last, new Read(null, -1, ModelDatabase.EMPTY, path + " does not exist; measure "
                + "links with bin/polylink plogp, which writes it"));
        } catch (IOException e) {
            return changed(last, new Read(null, -2, ModelDatabase.EMPTY, path + " cannot be read: " + e));
        }
        if (modified.equals(last.modified()) && size == last.size()) {
            return last.models();
        }
        try {
            return changed(last, new Read(modified, size, ModelDatabase.read(path), null));
        } catch (IOException e) {
            return changed(last, new Read(modified, size, ModelDatabase.EMPTY, path + " cannot be read: " + e));
        } catch (IllegalArgumentException e) {
            return changed(last, new Read(modified, size, ModelDatabase.EMPTY, e.getMessage()
                + "; links go by table order until it is mended"));
        }
    }

    /** @return the problem with the file as last read, or {@code null} */
    String problem() {
        return read.problem();
    }

    private ModelDatabase changed(Read last, Read now) {
        if (now.size() != last.size() || !Objects.equals(now.modified(), last.modified())) {
            read = now;
            if (now.problem() != null) {
                LOG.log(Level.WARNING, "cost-model policy: " + now.problem());
            } else if (now.models() != last.models()) {
                LOG.log(Level.INFO, "cost-model policy: " + now.models().models().size() + " link models from " + path);
            }
        }
        return now.models();
    }
}
