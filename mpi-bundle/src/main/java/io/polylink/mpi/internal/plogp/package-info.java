/**
 * The P-LogP measurement between two ranks ({@link io.polylink.mpi.internal.plogp.Pair}: the
 * measurer times, the mirror answers its commands) and {@code polylink plogp}'s rank program
 * ({@link io.polylink.mpi.internal.plogp.PLogPMain}), with its table and chart. Runs on the
 * application threads of the two ranks.
 */
package io.polylink.mpi.internal.plogp;
