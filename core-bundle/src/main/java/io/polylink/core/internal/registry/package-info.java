/**
 * What this context has: the methods and transforms installed, with what the core knows of each,
 * and the descriptor table it advertises from them (and from descriptor files), which says where
 * the context runs. Each change makes a new generation, after which every link selects again.
 * Changes come on the installing thread (the framework's, an embedding application's, the
 * descriptor-file installer's) under the registry's lock; lookups take no lock.
 */
package io.polylink.core.internal.registry;
