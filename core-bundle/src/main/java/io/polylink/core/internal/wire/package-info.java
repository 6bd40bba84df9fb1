/**
 * The bytes on the wire, each layout described once with named offsets and a diagram: the frame
 * header, each control frame (stack announcement, acknowledgement, refusal, handshake; table and
 * table reset), the descriptor table with its origin, and the startpoint forms. Every length a
 * peer sends is checked before anything is allocated for it. Pure functions, on whatever thread
 * encodes or decodes; used by the channels, buffers and startpoints.
 */
package io.polylink.core.internal.wire;
