/**
 * The contract of a communication method as a test kit: {@link io.polylink.tck.MethodContractTest},
 * which a method's own build extends with a {@link io.polylink.tck.MethodUnderTest} that makes
 * instances of the method. Each test starts two instances, each in a context of the kit's own
 * that records what the method hands the core, and checks one clause of the SPI's contract; one
 * test runs numbered RSR streams between two real contexts over the method. See
 * {@code docs/writing-a-method.md}.
 */
@Export
@Version("0.1.0")
package io.polylink.tck;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
