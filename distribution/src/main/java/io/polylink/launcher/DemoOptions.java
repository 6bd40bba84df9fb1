package io.polylink.launcher;

import java.util.ArrayList;
import java.util.List;

/** The options of {@code polylink demo}; see {@link Demo#HELP}. */
record DemoOptions(int count, List<Integer> sizes, int stream) {

    /**
     * @return the options, or {@code null} if {@code --help} was asked for
     * @throws IllegalArgumentException naming the option that is wrong and why
     */
    static DemoOptions parse(String[] args) {
        int count = 1000;
        List<Integer> sizes = List.of(16, 1024, 65536);
        int stream = 20000;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--help", "-h" -> {
                    return null;
                }
                case "--count" -> count = Options.number(option, Options.value(args, ++i, option), 1, 100_000);
                case "--stream" -> stream = Options.number(option, Options.value(args, ++i, option), 100, 10_000_000);
                case "--sizes" -> {
                    List<Integer> list = new ArrayList<>();
                    for (String item : Options.value(args, ++i, option).split(",")) {
                        list.add(Options.number(option, item.trim(), 1, 1 << 20));
                    }
                    sizes = List.copyOf(list);
                }
                default -> throw new IllegalArgumentException("unknown option '" + option + "'");
            }
        }
        return new DemoOptions(count, sizes, stream);
    }
}
