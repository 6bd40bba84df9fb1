package io.polylink.bench.internal;

import io.polylink.method.compress.internal.Lz4Transform;
import io.polylink.method.crypto.internal.AeadComponent;
import io.polylink.spi.Transform;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

/**
 * The lz4 and aead transforms as the bench runs them, outside OSGi. The aead transform is not
 * public: its component registers it only after checking the key and the cipher provider, so the
 * bench activates that component as Felix would, with a {@link BundleContext} that only takes the
 * one registration, and runs exactly what a node runs.
 */
public final class BenchTransforms {

    /** The pre-shared key every bench context uses: both ends of a link must hold the same one. */
    public static final String PSK = Base64.getEncoder().encodeToString(
        "polylink-bench-psk-32-bytes-long".getBytes(StandardCharsets.US_ASCII));

    private BenchTransforms() {}

    /** @return the lz4 transform with its default settings (minSize 64, scope always) */
    public static Transform lz4() {
        return new Lz4Transform(Map.of());
    }

    /**
     * @param cipher {@code aes-256-gcm} or {@code chacha20-poly1305}
     * @return the aead transform with {@link #PSK}, Conscrypt and scope always
     * @throws IllegalStateException if the component did not register it, with its reason (e.g.
     *     Conscrypt's native library did not load)
     */
    public static Transform aead(String cipher) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("psk", PSK);
        properties.put("cipher", cipher);
        properties.put("provider", "conscrypt");
        AtomicReference<Transform> registered = new AtomicReference<>();
        new AeadComponent(capturing(registered), properties);
        Transform transform = registered.get();
        if (transform == null) {
            throw new IllegalStateException("the aead component registered no transform (" + cipher
                + "); its log line says why");
        }
        return transform;
    }

    /** A bundle context whose only working call is registering a {@link Transform}, into {@code into}. */
    private static BundleContext capturing(AtomicReference<Transform> into) {
        ServiceRegistration<?> registration = (ServiceRegistration<?>) Proxy.newProxyInstance(
            BenchTransforms.class.getClassLoader(), new Class<?>[] {ServiceRegistration.class}, (proxy, method, args) -> {
                if (method.getName().equals("unregister")) {
                    return null;
                }
                throw new UnsupportedOperationException(method.getName());
            });
        return (BundleContext) Proxy.newProxyInstance(BenchTransforms.class.getClassLoader(),
            new Class<?>[] {BundleContext.class}, (proxy, method, args) -> {
                if (method.getName().equals("registerService") && args != null && args.length == 3
                        && args[1] instanceof Transform t) {
                    into.set(t);
                    return registration;
                }
                throw new UnsupportedOperationException("BundleContext." + method.getName() + " outside OSGi");
            });
    }
}
