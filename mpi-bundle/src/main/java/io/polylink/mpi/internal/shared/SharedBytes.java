package io.polylink.mpi.internal.shared;

/**
 * Where a message's bytes lie in a rank's shared memory: its segment file, by the owner's process id
 * and the segment's token, and the offset of the first byte in it.
 */
public record SharedBytes(long pid, long token, long offset) {}
