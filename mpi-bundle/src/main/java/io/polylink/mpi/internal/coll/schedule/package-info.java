/**
 * Collectives as schedules: graphs of sends, receives and local steps (reductions, copies), each
 * step starting once the steps it waits for completed.
 *
 * <p>An algorithm describes its steps to a {@link io.polylink.mpi.internal.coll.schedule.Plan};
 * {@link io.polylink.mpi.internal.coll.schedule.Plan#start()} makes the
 * {@link io.polylink.mpi.internal.coll.schedule.Schedule}, an operation like any request, and
 * starts the steps that wait for nothing. From then on whichever thread completes a step starts
 * the steps that waited for it: usually a method's I/O thread, as a message arrives, so a
 * collective progresses while its application computes, and a blocking collective is only a
 * schedule waited for.
 *
 * <p>Every message of a schedule travels on the communicator's collective context id, with a tag
 * made of the collective's sequence number on the communicator and the message's number between
 * its two ranks: messages of different collectives, or of one collective's different steps, never
 * match each other's receives, whatever order the steps run in, as long as each rank numbers the
 * messages between a pair of ranks in the same order (every algorithm adds them in the order of
 * its description).
 */
package io.polylink.mpi.internal.coll.schedule;
