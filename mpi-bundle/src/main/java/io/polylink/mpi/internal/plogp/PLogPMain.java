package io.polylink.mpi.internal.plogp;

import io.polylink.mpi.plogp.PLogPMeasurement;
import io.polylink.plogp.LinkModel;
import io.polylink.plogp.ModelDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The rank program of {@code polylink plogp}: two ranks measure the link between them over each
 * stack asked for, rank 0 prints each model as a table, then merges them into the installation's
 * model file and draws them.
 *
 * <pre>
 * PLogPMain [--stacks LIST] [--min-size N] [--max-size N] [--time-ms N] [--warmup-ms N] [--db FILE] [--svg FILE]
 * </pre>
 */
public final class PLogPMain {

    private PLogPMain() {}

    /** What the command line asks for. */
    record Options(List<String> stacks, List<Long> sizes, Duration time, Duration warmUp, Path db, Path svg) {

        /** @throws IllegalArgumentException naming the option that is wrong */
        static Options parse(String... args) {
            List<String> stacks = List.of();
            long min = 1;
            long max = 4L << 20;
            Duration time = PLogPMeasurement.DEFAULT_TIME;
            Duration warmUp = PLogPMeasurement.DEFAULT_WARM_UP;
            Path db = null;
            Path svg = null;
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(option.startsWith("--") ? option + " needs a value"
                        : "'" + option + "' is not an option");
                }
                String value = args[++i];
                switch (option) {
                    case "--stacks" -> stacks = Arrays.stream(value.split(",")).map(String::trim)
                        .filter(s -> !s.isEmpty()).toList();
                    case "--min-size" -> min = size(option, value);
                    case "--max-size" -> max = size(option, value);
                    case "--time-ms" -> time = Duration.ofMillis(number(option, value));
                    case "--warmup-ms" -> warmUp = Duration.ofMillis(number(option, value));
                    case "--db" -> db = Path.of(value);
                    case "--svg" -> svg = Path.of(value);
                    default -> throw new IllegalArgumentException("'" + option + "' is not an option; the options are "
                        + "--stacks, --min-size, --max-size, --time-ms, --warmup-ms, --db and --svg");
                }
            }
            if (min < 1 || max < min) {
                throw new IllegalArgumentException("the sizes go from --min-size (at least 1) to --max-size (at least "
                    + "--min-size), not from " + min + " to " + max);
            }
            List<Long> sizes = new ArrayList<>();
            for (long m = Long.highestOneBit(min) == min ? min : Long.highestOneBit(min) << 1; m <= max; m <<= 1) {
                sizes.add(m);
            }
            return new Options(stacks, sizes, time, warmUp, db, svg);
        }

        private static long size(String option, String value) {
            String v = value.trim().toLowerCase(java.util.Locale.ROOT);
            long unit = v.endsWith("k") ? 1024 : v.endsWith("m") ? 1 << 20 : 1;
            try {
                return Long.parseLong(unit == 1 ? v : v.substring(0, v.length() - 1)) * unit;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " '" + value + "' is not a size such as 512, 64k or 4m");
            }
        }

        private static long number(String option, String value) {
            try {
                return Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " '" + value + "' is not a whole number");
            }
        }
    }

    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        boolean printing = world.getRank() == 0;
        Options options = null;
        PLogPMeasurement measurement = null;
        ModelDatabase db = ModelDatabase.EMPTY;
        String refused = null;
        try {
            options = Options.parse(args);
            measurement = new PLogPMeasurement(options.sizes(), options.time(), options.warmUp());
            if (world.getSize() != 2) {
                refused = "measures between two ranks, not " + world.getSize();
            } else if (printing && options.db() != null && Files.exists(options.db())) {
                db = ModelDatabase.read(options.db()); // before the measurement, which a bad file would waste
            }
        } catch (IllegalArgumentException | IOException e) {
            refused = e.getMessage();
        }
        int[] ok = {refused == null ? 1 : 0};
        world.allReduce(ok, 1, MPI.INT, MPI.MIN);
        if (ok[0] == 0) {
            if (refused != null && printing) {
                System.err.println("polylink plogp: " + refused);
            }
            MPI.Finalize();
            System.exit(2);
            return;
        }
        List<String> stacks = options.stacks().isEmpty()
            ? List.of(world.getInfo().get("polylink.stacks").split(",")[1 - world.getRank()]) : options.stacks();
        List<LinkModel> measured = new ArrayList<>();
        for (String stack : stacks) {
            Info pin = new Info();
            pin.set("polylink.stack", stack);
            Intracomm c = world.dupWithInfo(pin);
            LinkModel model = measurement.measure(c, 0, 1);
            c.free();
            measured.add(model);
            if (printing) {
                System.out.println(ModelTable.of(model));
                System.out.flush();
            }
        }
        if (printing) {
            if (options.db() != null) {
                for (LinkModel m : measured) {
                    db = db.with(m);
                }
                db.write(options.db());
                System.out.println("models: " + options.db() + " (" + measured.size() + " measured, "
                    + db.models().size() + " in all)");
            }
            if (options.svg() != null) {
                Files.writeString(options.svg(), ModelChart.svg("P-LogP: gap and overheads against message size",
                    measured), StandardCharsets.UTF_8);
                System.out.println("chart: " + options.svg());
            }
        }
        MPI.Finalize();
    }
}
