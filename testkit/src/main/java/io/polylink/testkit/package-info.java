/** Test helpers shared by the modules' tests; a bundle so in-framework tests can use them too. */
@Export
@Version("0.6.0")
package io.polylink.testkit;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
