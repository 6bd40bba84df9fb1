/**
 * The launcher behind {@link io.polylink.Polylink#start}: a Felix framework in the application's
 * JVM, running the bundles this jar carries. Runs on the thread that calls
 * {@code Polylink.start} or {@code close}; after that, only the framework's and the bundles' own
 * threads run.
 */
package io.polylink.embedded.internal;
