/**
 * The cost-model selection policy: for each usable entry of a target's table it predicts, from the
 * entry's measured P-LogP model ({@link io.polylink.plogp.ModelDatabase}), how long a message of
 * each size takes to arrive, {@code L + g(m)}, and chooses the fastest for each class of sizes.
 * The core calls it on the thread that binds a flow; it reads its model file again when the file
 * changes.
 */
package io.polylink.policy.plogp.internal;
