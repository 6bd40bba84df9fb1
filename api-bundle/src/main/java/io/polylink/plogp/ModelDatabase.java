package io.polylink.plogp;

import io.polylink.spi.PeerLocation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An installation's link models, at most one per location and stack, as the file
 * {@code polylink plogp} writes ({@code conf/plogp.models} of an installation). Immutable.
 *
 * <p>The file is text, one record per line, fields separated by tabs, times in microseconds;
 * {@code #} starts a comment line. A model's line comes first, then a line per measured size:
 *
 * <pre>
 * model  LOCATION  STACK  L  MEASURED  BETWEEN
 * size   BYTES  OS  OR  G  RTT
 * </pre>
 *
 * where {@code LOCATION} is {@code same-host}, {@code same-site} or {@code other-site} and
 * {@code MEASURED} an ISO-8601 instant.
 */
public final class ModelDatabase {

    /** The most models one database holds. */
    public static final int MAX_MODELS = 256;

    /** The longest text {@link #parse} reads, in characters. */
    public static final int MAX_TEXT = 1 << 20;

    /** A database with no models. */
    public static final ModelDatabase EMPTY = new ModelDatabase(List.of());

    private static final Comparator<LinkModel> ORDER = Comparator.comparing(LinkModel::location)
        .thenComparing(LinkModel::stack);

    private final List<LinkModel> models;

    private ModelDatabase(List<LinkModel> sorted) {
        this.models = sorted;
    }

    /**
     * @throws IllegalArgumentException if two models have the same location and stack, or there
     *     are more than {@link #MAX_MODELS}
     */
    public static ModelDatabase of(Collection<LinkModel> models) {
        List<LinkModel> sorted = new ArrayList<>(models);
        sorted.sort(ORDER);
        if (sorted.size() > MAX_MODELS) {
            throw new IllegalArgumentException("a model database holds at most " + MAX_MODELS + " models, not "
                + sorted.size());
        }
        for (int i = 1; i < sorted.size(); i++) {
            if (ORDER.compare(sorted.get(i - 1), sorted.get(i)) == 0) {
                throw new IllegalArgumentException("two models of " + sorted.get(i).stack() + " at "
                    + text(sorted.get(i).location()));
            }
        }
        return new ModelDatabase(List.copyOf(sorted));
    }

    /** @return the models, by location from nearest to farthest, then by stack */
    public List<LinkModel> models() {
        return models;
    }

    /** @return the model of {@code stack} between contexts {@code location} apart, if measured */
    public Optional<LinkModel> find(PeerLocation location, String stack) {
        return models.stream().filter(m -> m.location() == location && m.stack().equals(stack)).findFirst();
    }

    /** @return this database with {@code model} in place of any model of its location and stack */
    public ModelDatabase with(LinkModel model) {
        List<LinkModel> kept = new ArrayList<>(models);
        kept.removeIf(m -> m.location() == model.location() && m.stack().equals(model.stack()));
        kept.add(model);
        return of(kept);
    }

    /** @return the file's text */
    public String format() {
        StringBuilder out = new StringBuilder();
        out.append("# Polylink P-LogP link models, written by polylink plogp; times in microseconds.\n")
            .append("# model\tlocation\tstack\tL\tmeasured\tbetween\n")
            .append("# size\tbytes\tos\tor\tg\tRTT\n");
        for (LinkModel m : models) {
            out.append("model\t").append(text(m.location())).append('\t').append(m.stack()).append('\t')
                .append(micros(m.latency())).append('\t').append(m.measured()).append('\t').append(m.between())
                .append('\n');
            for (SizeParameters s : m.sizes()) {
                out.append("size\t").append(s.bytes()).append('\t').append(micros(s.sendOverhead())).append('\t')
                    .append(micros(s.receiveOverhead())).append('\t').append(micros(s.gap())).append('\t')
                    .append(micros(s.roundTrip())).append('\n');
            }
        }
        return out.toString();
    }

    private static String micros(double value) {
        return String.format(Locale.ROOT, "%.4f", value);
    }

    /**
     * @param text a database's text, as {@link #format} writes it
     * @throws IllegalArgumentException naming the line and what is wrong with it
     */
    public static ModelDatabase parse(String text) {
        if (text.length() > MAX_TEXT) {
            throw new IllegalArgumentException("a model database is at most " + MAX_TEXT + " characters, not "
                + text.length());
        }
        List<LinkModel> done = new ArrayList<>();
        String[] open = null;
        int openLine = 0;
        List<SizeParameters> sizes = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            try {
                switch (f[0]) {
                    case "model" -> {
                        if (open != null) {
                            done.add(model(open, sizes, openLine));
                        }
                        fields(f, 6, "model LOCATION STACK L MEASURED BETWEEN");
                        if (done.size() >= MAX_MODELS) {
                            throw new IllegalArgumentException("more than " + MAX_MODELS + " models");
                        }
                        open = f;
                        openLine = i + 1;
                        sizes = new ArrayList<>();
                    }
                    case "size" -> {
                        if (open == null) {
                            throw new IllegalArgumentException("a size before any model");
                        }
                        fields(f, 6, "size BYTES OS OR G RTT");
                        if (sizes.size() >= LinkModel.MAX_SIZES) {
                            throw new IllegalArgumentException("more than " + LinkModel.MAX_SIZES + " sizes in one model");
                        }
                        sizes.add(new SizeParameters(Long.parseLong(f[1]), time(f[2]), time(f[3]), time(f[4]),
                            time(f[5])));
                    }
                    default -> throw new IllegalArgumentException("'" + f[0] + "' is neither 'model' nor 'size'");
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        if (open != null) {
            done.add(model(open, sizes, openLine));
        }
        return of(done);
    }

    private static LinkModel model(String[] f, List<SizeParameters> sizes, int line) {
        try {
            return new LinkModel(location(f[1]), f[2], time(f[3]), sizes, Instant.parse(f[4]), f[5]);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("line " + line + ": '" + f[4] + "' is not an instant such as "
                + "2026-11-30T06:30:00Z", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("line " + line + ": " + e.getMessage(), e);
        }
    }

    private static void fields(String[] f, int count, String form) {
        if (f.length != count) {
            throw new IllegalArgumentException(f.length + " fields where '" + form + "' has " + count
                + ", separated by tabs");
        }
    }

    private static double time(String field) {
        double value;
        try {
            value = Double.parseDouble(field);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + field + "' is not a time in microseconds");
        }
        SizeParameters.check("a time", value);
        return value;
    }

    /** @return {@code same-host}, {@code same-site} or {@code other-site} */
    public static String text(PeerLocation location) {
        return location.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @param text {@code same-host}, {@code same-site} or {@code other-site}
     * @throws IllegalArgumentException for anything else
     */
    public static PeerLocation location(String text) {
        for (PeerLocation l : PeerLocation.values()) {
            if (l != PeerLocation.SAME_CONTEXT && text(l).equals(text)) {
                return l;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a location; write same-host, same-site or other-site");
    }

    /**
     * @throws IOException if the file cannot be read
     * @throws IllegalArgumentException naming the file, the line and what is wrong with it
     */
    public static ModelDatabase read(Path file) throws IOException {
        if (Files.size(file) > MAX_TEXT) {
            throw new IllegalArgumentException(file + ": a model database is at most " + MAX_TEXT + " bytes");
        }
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ", " + e.getMessage(), e);
        }
    }

    /** Writes the file whole or not at all: a reader never sees half of it. */
    public void write(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        try {
            Files.writeString(temp, format(), StandardCharsets.UTF_8);
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ModelDatabase d && d.models.equals(models);
    }

    @Override
    public int hashCode() {
        return models.hashCode();
    }

    @Override
    public String toString() {
        return "ModelDatabase" + models.stream().map(m -> text(m.location()) + " " + m.stack()).toList();
    }
}
