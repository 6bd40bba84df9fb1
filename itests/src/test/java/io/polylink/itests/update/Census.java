package io.polylink.itests.update;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.wiring.BundleRevisions;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * What this process holds at one moment, counted from Linux's view of it (/proc/self) and the
 * framework's: live threads by name, open file descriptors by kind, files in the shm segment
 * directory, memory mappings of files there, and bundle revisions.
 *
 * @param threads live threads by name, with numbers and ids replaced by {@code #}
 * @param descriptors open file descriptors by kind: socket, pipe, anon_inode:…, shm (a file in
 *     the segment directory), jar, other
 * @param shmFiles the names in the segment directory
 * @param mappings lines of /proc/self/maps naming a file in the segment directory
 * @param revisions bundles whose revision count is not 1, with that count
 * @param removalPending bundles the framework still keeps old revisions of until a refresh
 * @param cachedRevisions bundle folders of the framework's cache holding more than one revision
 *     folder, with that count
 */
record Census(Map<String, Integer> threads, Map<String, Integer> descriptors, List<String> shmFiles,
              int mappings, Map<String, Integer> revisions, List<String> removalPending,
              Map<String, Integer> cachedRevisions) {

    private static final Pattern NUMBERS = Pattern.compile(
        "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\\d+");

    /**
     * @param shm the segment directory
     * @param framework the system bundle's context
     * @param storage the framework's cache folder
     */
    static Census take(Path shm, BundleContext framework, Path storage) {
        Map<String, Integer> threads = new TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive()) {
                threads.merge(NUMBERS.matcher(t.getName()).replaceAll("#"), 1, Integer::sum);
            }
        }
        Map<String, Integer> revisions = new TreeMap<>();
        for (Bundle b : framework.getBundles()) {
            int count = b.adapt(BundleRevisions.class).getRevisions().size();
            if (count != 1) {
                revisions.put(b.getSymbolicName(), count);
            }
        }
        List<String> pending = framework.getBundle(0).adapt(FrameworkWiring.class).getRemovalPendingBundles()
            .stream().map(b -> b.getSymbolicName() + " " + b.getBundleId()).sorted().toList();
        return new Census(threads, descriptors(shm), shmFiles(shm), mappingsNow(shm), revisions, pending,
            cachedRevisions(storage));
    }

    int threadCount() {
        return threads.values().stream().mapToInt(Integer::intValue).sum();
    }

    int descriptorCount() {
        return descriptors.values().stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * @return every way this census holds more than {@code baseline}: more threads of a name or in
     *     all, more descriptors of a kind or in all, other segment files, more mappings, a bundle
     *     with more than one revision, bundles pending removal; empty if none
     */
    List<String> excessOver(Census baseline) {
        List<String> excess = new ArrayList<>();
        more("threads", threads, baseline.threads, excess);
        if (threadCount() > baseline.threadCount()) {
            excess.add("threads in all: " + threadCount() + ", baseline " + baseline.threadCount());
        }
        more("descriptors", descriptors, baseline.descriptors, excess);
        if (descriptorCount() > baseline.descriptorCount()) {
            excess.add("descriptors in all: " + descriptorCount() + ", baseline " + baseline.descriptorCount());
        }
        if (!shmFiles.equals(baseline.shmFiles)) {
            excess.add("segment files " + shmFiles + ", baseline " + baseline.shmFiles);
        }
        if (mappings > baseline.mappings) {
            excess.add("mappings of segment files: " + mappings + ", baseline " + baseline.mappings);
        }
        if (!revisions.isEmpty()) {
            excess.add("bundles with other than one revision: " + revisions);
        }
        if (!removalPending.isEmpty()) {
            excess.add("bundles pending removal: " + removalPending);
        }
        if (!cachedRevisions.isEmpty()) {
            excess.add("bundles with more than one revision in the framework's cache: " + cachedRevisions);
        }
        return excess;
    }

    private static void more(String what, Map<String, Integer> now, Map<String, Integer> baseline, List<String> excess) {
        now.forEach((name, count) -> {
            int before = baseline.getOrDefault(name, 0);
            if (count > before) {
                excess.add(what + " '" + name + "': " + count + ", baseline " + before);
            }
        });
    }

    /** One line for progress output. */
    String summary() {
        return threadCount() + " threads (" + threads.entrySet().stream().filter(e -> e.getKey().startsWith("polylink-"))
            .mapToInt(Map.Entry::getValue).sum() + " polylink-*), " + descriptorCount() + " descriptors "
            + descriptors + ", " + shmFiles.size() + " segment files, " + mappings + " segment mappings";
    }

    private static Map<String, Integer> descriptors(Path shm) {
        Map<String, Integer> kinds = new TreeMap<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (NoSuchFileException closedMeanwhile) {
                    continue;
                }
                kinds.merge(kind(target, shm), 1, Integer::sum);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return kinds;
    }

    private static String kind(String target, Path shm) {
        if (target.startsWith(shm.toString() + "/")) {
            return "shm";
        }
        if (target.startsWith("socket:")) {
            return "socket";
        }
        if (target.startsWith("pipe:")) {
            return "pipe";
        }
        if (target.startsWith("anon_inode:")) {
            return target;
        }
        return target.endsWith(".jar") || target.endsWith(".jar (deleted)") ? "jar" : "other";
    }

    /** Felix keeps each revision of bundle N in a folder bundleN/version0.M of its cache. */
    private static Map<String, Integer> cachedRevisions(Path storage) {
        Map<String, Integer> many = new TreeMap<>();
        try (Stream<Path> bundles = Files.list(storage)) {
            for (Path bundle : bundles.filter(Files::isDirectory).toList()) {
                try (Stream<Path> versions = Files.list(bundle)) {
                    int count = (int) versions.filter(v -> v.getFileName().toString().startsWith("version")).count();
                    if (count > 1) {
                        many.put(bundle.getFileName().toString(), count);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return many;
    }

    private static List<String> shmFiles(Path shm) {
        try (Stream<Path> files = Files.list(shm)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return how many lines of /proc/self/maps name a file in the segment directory now */
    static int mappingsNow(Path shm) {
        String prefix = shm.toString() + "/";
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
            return (int) lines.filter(l -> l.contains(prefix)).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the distinct names of the segment files mapped now, for a failure message */
    static TreeSet<String> mapped(Path shm) {
        String prefix = shm.toString() + "/";
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
            return lines.filter(l -> l.contains(prefix)).map(l -> l.substring(l.indexOf(prefix)))
                .collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
