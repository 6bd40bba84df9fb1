/**
 * Tests of the documented ways to run Polylink in a framework of one's own: a bare Felix started
 * from docs/embedding.md's bundle list, and Apache Karaf with the features repository. Each
 * framework's context is reached from a context this JVM starts with {@code Polylink.start},
 * through a naming registry directory they share.
 */
package io.polylink.itests.embedding;
