/**
 * Installing what a context meets but lacks: the provisioner finds the bundle of a method or
 * transform in a repository index and installs it with the libraries it needs, on its own
 * thread ({@code polylink-provision}); descriptor files in {@code deploy/} add stacks to the
 * context's table and ask for what they name. Selection, FileInstall and the shell call in.
 */
package io.polylink.core.internal.provision;
