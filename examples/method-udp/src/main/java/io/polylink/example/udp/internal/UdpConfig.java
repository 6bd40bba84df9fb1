package io.polylink.example.udp.internal;

/**
 * The udp method's configuration, PID {@value UdpMethod#PID}: each key and its default, written
 * once here and read by {@link io.polylink.spi.Configuration#read}.
 */
@interface UdpConfig {

    /** Bytes of receive buffer asked of the kernel, so bursts on loopback are not dropped; it may grant less. */
    int receiveBufferBytes() default 4 << 20;
}
