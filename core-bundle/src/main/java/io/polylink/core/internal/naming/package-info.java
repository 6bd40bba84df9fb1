/**
 * Naming: where a context publishes startpoints by name and looks them up, and the default
 * registry, one file per name in a directory. Runs on the caller's thread; the registry in use
 * comes and goes as a service.
 */
package io.polylink.core.internal.naming;
