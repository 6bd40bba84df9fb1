package io.polylink.itests.embedding;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Maven coordinates as the docs write them ({@code groupId:artifactId:version}), resolved to the
 * files this build has: Polylink's own artifacts as the reactor built them (system properties
 * {@code artifact.<artifactId>}), everything else in the local repository Maven resolved them into.
 *
 * @param groupId the group
 * @param artifactId the artifact
 * @param version the version the docs name
 */
record Coordinates(String groupId, String artifactId, String version) {

    /** @throws AssertionError if {@code text} is not {@code groupId:artifactId:version} */
    static Coordinates parse(String text) {
        String[] parts = text.strip().split(":");
        if (parts.length != 3) {
            throw new AssertionError("not groupId:artifactId:version: '" + text + "'");
        }
        return new Coordinates(parts[0], parts[1], parts[2]);
    }

    boolean isPolylink() {
        return groupId.equals("io.polylink");
    }

    /**
     * @return the artifact's file
     * @throws AssertionError if a Polylink artifact's version is not this build's, or the file is missing
     */
    Path file() {
        Path file;
        if (isPolylink()) {
            String built = System.getProperty("polylink.version");
            if (!version.equals(built)) {
                throw new AssertionError("the docs name " + this + ", but this build makes version " + built);
            }
            String path = System.getProperty("artifact." + artifactId);
            if (path == null) {
                throw new AssertionError("the docs name " + this + ", which the test's pom does not list");
            }
            file = Path.of(path);
        } else {
            file = Path.of(System.getProperty("polylink.m2")).resolve(groupId.replace('.', '/')).resolve(artifactId)
                .resolve(version).resolve(artifactId + "-" + version + ".jar");
        }
        if (!Files.isRegularFile(file)) {
            throw new AssertionError(this + ": no file " + file);
        }
        return file;
    }

    /** @return where the file goes in a Maven repository's layout */
    Path layout(Path repository, String classifier, String extension) {
        return repository.resolve(groupId.replace('.', '/')).resolve(artifactId).resolve(version)
            .resolve(artifactId + "-" + version + (classifier == null ? "" : "-" + classifier) + "." + extension);
    }

    @Override
    public String toString() {
        return groupId + ":" + artifactId + ":" + version;
    }
}
