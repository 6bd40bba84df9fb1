/**
 * One established connection: {@link io.polylink.method.tcp.internal.connection.TcpConnection},
 * the core's handle, made of its sending side ({@code Outbound}: optimistic writes from the
 * sender's thread, the bounded queue, and {@code LargeFrameWriter} for the rest of a large frame),
 * its reading side ({@code Inbound} with its {@code FrameReader}: reads on the loop, or aside by a
 * sender at the sending end of a bulk stream) and its clock ({@code Liveness}); and the bounds on
 * the frames all of a method's connections receive ({@code FrameLimits}).
 *
 * <p>Senders call in from any thread; the I/O loop reads, drains the queue and runs the liveness
 * checks; the timer thread sends heartbeats. Each class says which lock guards what.
 */
package io.polylink.method.tcp.internal.connection;
