/**
 * The context and each of its links as JMX MXBeans in the platform MBean server, readable with
 * {@code jconsole}: {@code io.polylink:type=Context,context=<id>} and
 * {@code io.polylink:type=Link,context=<id>,link=<flow id>}. The context's bean is registered as
 * its runtime starts and unregistered as it stops; link beans follow the flows, registered and
 * unregistered on the context's retry thread as flows begin and end. Attributes are read on
 * the JMX connector's threads, from the same counters the shell reads.
 */
package io.polylink.core.internal.jmx;
