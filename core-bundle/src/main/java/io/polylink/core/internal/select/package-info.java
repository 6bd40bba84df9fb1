/**
 * Which entry of a target's descriptor table a flow uses: the context's selection policy over
 * the core's assessment of each entry (installed here, applicable, not forbidden or pinned away
 * by the startpoint's settings), again without an entry whose connection failed. Explains every
 * choice. Runs on the thread that binds a flow or explains a startpoint; tells the provisioner of
 * what it meets but lacks, which must not block.
 */
package io.polylink.core.internal.select;
