package io.polylink.launcher.mpirun;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hosts a job runs on and how many ranks each takes, in Open MPI's formats: {@code --host
 * h1:2,h2:2}, or a hostfile of lines {@code h1 slots=2}; a hostfile line may also say
 * {@code site=NAME}, the Polylink site of the host's ranks. Ranks fill the hosts in order, each
 * host its slots (Open MPI's default placement, by slot).
 *
 * @param hosts the hosts, each named once, in order
 */
record Hosts(List<Host> hosts) {

    /**
     * One host.
     *
     * @param name what the launcher reaches it by: a host name, an address, a namespace
     * @param slots how many ranks it takes
     * @param site its ranks' site, or {@code null} for the default (the host is a site of its own)
     */
    record Host(String name, int slots, String site) {}

    /** Host names the launcher template can take as one word. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.@:\\[\\]-]{1,255}");
    private static final Pattern SITE = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern HOSTFILE_LINE = Pattern.compile("(\\S+)((?:\\s+\\S+=\\S*)*)\\s*");

    Hosts {
        hosts = List.copyOf(hosts);
    }

    /**
     * @param list {@code --host}'s value: names, each perhaps with {@code :slots}, comma-separated;
     *     a name given twice gets the slots of both
     * @throws IllegalArgumentException naming the entry that is wrong
     */
    static Hosts parse(String list) {
        Map<String, Host> hosts = new LinkedHashMap<>();
        for (String entry : list.split(",", -1)) {
            int colon = entry.lastIndexOf(':');
            boolean counted = colon > 0 && entry.substring(colon + 1).matches("\\d+") && !entry.endsWith("]");
            String name = counted ? entry.substring(0, colon) : entry;
            int slots = counted ? slots(entry.substring(colon + 1), "--host entry '" + entry + "'") : 1;
            add(hosts, new Host(name(name, "--host entry '" + entry + "'"), slots, null));
        }
        return new Hosts(List.copyOf(hosts.values()));
    }

    /**
     * @param file a hostfile: a host per line, {@code NAME [slots=N] [max_slots=N] [site=NAME]};
     *     {@code #} starts a comment; a host without slots takes one rank
     * @throws IllegalArgumentException naming the file, the line and what is wrong there
     */
    static Hosts read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("--hostfile " + file + " cannot be read: " + e.getMessage());
        }
        Map<String, Host> hosts = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replaceFirst("#.*", "").strip();
            if (line.isEmpty()) {
                continue;
            }
            String where = "--hostfile " + file + ", line " + (i + 1);
            Matcher m = HOSTFILE_LINE.matcher(line);
            if (!m.matches()) {
                throw new IllegalArgumentException(where + ": '" + line + "' is not NAME [slots=N] [site=NAME]");
            }
            int slots = 1;
            String site = null;
            for (String attribute : m.group(2).strip().split("\\s+")) {
                if (attribute.isEmpty()) {
                    continue;
                }
                String key = attribute.substring(0, attribute.indexOf('='));
                String value = attribute.substring(attribute.indexOf('=') + 1);
                switch (key) {
                    case "slots" -> slots = slots(value, where);
                    case "max_slots", "max-slots" -> slots(value, where); // a cap on oversubscription, which mpirun never does
                    case "site" -> site = site(value, where);
                    default -> throw new IllegalArgumentException(where + ": unknown attribute '" + key
                        + "'; a line takes slots=N, max_slots=N and site=NAME");
                }
            }
            add(hosts, new Host(name(m.group(1), where), slots, site));
        }
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("--hostfile " + file + " names no host");
        }
        return new Hosts(List.copyOf(hosts.values()));
    }

    private static void add(Map<String, Host> hosts, Host host) {
        hosts.merge(host.name(), host, (a, b) -> new Host(a.name(), a.slots() + b.slots(),
            b.site() != null ? b.site() : a.site()));
    }

    private static String name(String name, String where) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(where + ": '" + name + "' is not a host name (letters, digits, '.', "
                + "'-', '_', '@', ':' and brackets)");
        }
        return name;
    }

    private static int slots(String text, String where) {
        try {
            int n = Integer.parseInt(text);
            if (n >= 1 && n <= MpirunOptions.MAX_RANKS) {
                return n;
            }
        } catch (NumberFormatException notANumber) {
            // said below
        }
        throw new IllegalArgumentException(where + ": slots are a number from 1 to " + MpirunOptions.MAX_RANKS
            + ", not '" + text + "'");
    }

    private static String site(String text, String where) {
        if (!SITE.matcher(text).matches()) {
            throw new IllegalArgumentException(where + ": site '" + text + "' is not 1 to 64 letters, digits, '.', "
                + "'_' and '-'");
        }
        return text;
    }

    /** @return how many ranks the hosts take together */
    int slots() {
        return hosts.stream().mapToInt(Host::slots).sum();
    }

    /**
     * @param ranks how many ranks the job has
     * @return the host of each rank: the first host's slots first, then the next host's
     * @throws IllegalArgumentException if the hosts have fewer slots than ranks
     */
    List<Host> place(int ranks) {
        if (ranks > slots()) {
            throw new IllegalArgumentException("-np " + ranks + " ranks do not fit the " + slots() + " slots of "
                + String.join(", ", hosts.stream().map(h -> h.name() + ":" + h.slots()).toList())
                + "; give each host more slots (--host NAME:SLOTS, or slots=N in a hostfile)");
        }
        List<Host> placed = new ArrayList<>(ranks);
        for (Host h : hosts) {
            for (int s = 0; s < h.slots() && placed.size() < ranks; s++) {
                placed.add(h);
            }
        }
        return placed;
    }
}
