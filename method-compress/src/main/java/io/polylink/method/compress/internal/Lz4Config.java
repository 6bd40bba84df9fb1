package io.polylink.method.compress.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Configuration of the lz4 transform, PID {@code io.polylink.method.compress}. */
@ObjectClassDefinition(name = "Polylink lz4 transform")
@interface Lz4Config {

    @AttributeDefinition(description = "Payloads shorter than this many bytes are sent stored: "
        + "compressing them costs more than it saves")
    int minSize() default Lz4Settings.DEFAULT_MIN_SIZE;

    @AttributeDefinition(description = "Where to compress: always, other-host (only with peers on another "
        + "host), other-site (only with peers on another site) or never")
    String scope() default "always";
}
