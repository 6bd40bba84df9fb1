package io.polylink.method.shm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Configuration of the shm method, PID {@code io.polylink.method.shm}: each key and its default. */
@ObjectClassDefinition(name = "Polylink shm method")
@interface ShmConfig {

    @AttributeDefinition(description = "Directory of the segments; empty: /dev/shm/polylink-<user>")
    String directory() default "";

    @AttributeDefinition(description = "Further segment directories whose inboxes this context maps, besides its "
        + "own; each must belong to this user and be writable by no one else")
    String[] trustedDirectories() default {};

    @AttributeDefinition(description = "Bytes of the inbox ring, a power of two from 65536; a record "
        + "holds at most an eighth of it, larger frames are split")
    int ringBytes() default 1 << 20;

    @AttributeDefinition(description = "How many contexts may send to this one at once")
    int producerSlots() default 64;

    /** Text, not an enum: metatype would give an enum's default as its constant's name, not as the .cfg writes it. */
    @AttributeDefinition(description = "Inbox poller when idle: spin, spin-then-park or park")
    String idleStrategy() default "spin-then-park";

    @AttributeDefinition(description = "How long spin-then-park polls after the last record, in microseconds; "
        + "20 while records keep coming further apart and this context sends more than two frames between them; "
        + "doubled, up to 5 ms, while the poller answers a conversation whose turns outlast it")
    int spinMicros() default 200;

    @AttributeDefinition(description = "How long the inbox poller naps between its turns while application "
        + "threads receive through Context.progress(), in ms: it takes over this long after they stop calling, "
        + "and 50 us after they hand receiving back (Context.handBackReceiving()) unless they come back")
    int standBackMs() default 1;

    @AttributeDefinition(description = "How long a send waits for ring space, in ms; 0 fails at once")
    int sendTimeoutMs() default 5000;

    @AttributeDefinition(description = "The inbox heartbeat is written this often, in ms")
    int heartbeatIntervalMs() default 100;

    @AttributeDefinition(description = "A receiver whose heartbeat and inbox stood still this long is declared "
        + "dead if its process is stopped (SIGSTOP, a debugger), in ms; one whose process runs is only slow")
    int failureTimeoutMs() default 1000;

    @AttributeDefinition(description = "A record claimed but not finished for this long is skipped if its "
        + "producer's process has ended or is stopped, in ms; a claim its producer has not yet marked waits "
        + "while any producer is stopped")
    int unblockTimeoutMs() default 1000;
}
