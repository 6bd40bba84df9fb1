/**
 * A naming registry in ZooKeeper, through Apache Curator: each published name an ephemeral node
 * under {@code <chroot>/<group>}, so a context's names vanish with it, and published again after
 * the session is lost and a new one begins. {@code ZooKeeperRegistryComponent} registers the
 * registry when the configuration of {@code io.polylink.registry} says {@code type=zookeeper};
 * {@code ZooKeeperNameRegistry} does the work, every ZooKeeper call on its own thread
 * ({@code polylink-zookeeper}), which callers (a context's application threads) wait on, bounded.
 */
package io.polylink.registry.zookeeper.internal;
