package io.polylink.method.crypto.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.spi.PeerLocation;
import io.polylink.spi.Transform;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Provider;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Dictionary;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

/** Configuration, provider choice, registration and scope of the aead transform. */
class AeadSetupTest {

    private static final Supplier<Provider> NO_NATIVE_LIBRARY = () -> {
        throw new UnsatisfiedLinkError("no conscrypt_openjdk_jni-linux-x86_64 in java.library.path");
    };

    /** A bundle context that only records service registrations. */
    private static final class Registrations {
        final List<Object[]> registered = new ArrayList<>();
        int unregistered;
        final BundleContext bundle = (BundleContext) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {BundleContext.class}, (proxy, method, args) -> {
                if (!method.getName().equals("registerService")) {
                    throw new UnsupportedOperationException(method.getName());
                }
                registered.add(args);
                return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {ServiceRegistration.class},
                    (p, m, a) -> {
                        if (m.getName().equals("unregister")) {
                            unregistered++;
                            return null;
                        }
                        throw new UnsupportedOperationException(m.getName());
                    });
            });
    }

    @Test
    void hkdfMatchesRfc5869() {
        HexFormat hex = HexFormat.of();
        byte[] ikm = hex.parseHex("0b".repeat(22));
        byte[] prk = Hkdf.extract(hex.parseHex("000102030405060708090a0b0c"), ikm);
        assertEquals("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5", hex.formatHex(prk));
        assertEquals("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
            hex.formatHex(Hkdf.expand(prk, hex.parseHex("f0f1f2f3f4f5f6f7f8f9"), 42)));
        byte[] prkNoSalt = Hkdf.extract(new byte[0], ikm);
        assertEquals("19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04", hex.formatHex(prkNoSalt));
        assertEquals("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8",
            hex.formatHex(Hkdf.expand(prkNoSalt, new byte[0], 42)));
    }

    @Test
    void withoutAPreSharedKeyTheTransformDoesNotStartAndSaysWhatToSet() {
        Registrations osgi = new Registrations();

        AeadComponent component = new AeadComponent(osgi.bundle, Map.of());

        assertEquals("aead transform off: the aead transform needs a pre-shared key and has none: set psk "
            + "(base64, at least 32 bytes) or pskFile in configuration io.polylink.method.crypto, the same on every "
            + "context that talks aead", component.off());
        assertEquals(0, osgi.registered.size());
        component.deactivate();
    }

    @Test
    void whenConscryptCannotLoadTheTransformStaysOffUnlessTheJdkIsNamed() {
        Registrations osgi = new Registrations();

        String off = new AeadComponent(osgi.bundle, Map.of("psk", SessionPair.PSK), NO_NATIVE_LIBRARY).off();
        AeadComponent jdk = new AeadComponent(osgi.bundle, Map.of("psk", SessionPair.PSK, "provider", "jdk"),
            NO_NATIVE_LIBRARY);

        assertTrue(off.startsWith("aead transform off: Conscrypt cannot run on "
            + System.getProperty("os.name") + "/" + System.getProperty("os.arch") + " (java.lang.UnsatisfiedLinkError: "
            + "no conscrypt_openjdk_jni-linux-x86_64 in java.library.path); the aead transform stays off rather than "
            + "encrypt with a provider nobody chose. Set provider=jdk in io.polylink.method.crypto"), off);
        assertEquals(1, osgi.registered.size(), "only the explicit jdk configuration registered");
        Object[] registration = osgi.registered.get(0);
        assertEquals(Transform.class, registration[0]);
        AeadTransform transform = (AeadTransform) registration[1];
        assertEquals("aead", transform.name());
        assertEquals("SunJCE", transform.provider().provider().getName());
        assertEquals("aead", ((Dictionary<?, ?>) registration[2]).get(Transform.NAME_PROPERTY));
        jdk.deactivate();
        assertEquals(1, osgi.unregistered);
    }

    @Test
    void byDefaultConscryptEncryptsWithAes256Gcm() {
        Registrations osgi = new Registrations();

        new AeadComponent(osgi.bundle, Map.of("psk", SessionPair.PSK));

        AeadTransform transform = (AeadTransform) osgi.registered.get(0)[1];
        assertEquals("conscrypt", transform.provider().name());
        assertTrue(org.conscrypt.Conscrypt.isConscrypt(transform.provider().provider()));
        assertEquals("aead transform (aes-256-gcm by conscrypt, scope always)", transform.toString());
    }

    @Test
    void badKeysAreRefusedWithoutShowingThem(@TempDir Path dir) throws Exception {
        String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
        String notBase64 = "this is not base64 but a secret passphrase!";
        Path keyFile = Files.writeString(dir.resolve("psk"), "  " + SessionPair.PSK.substring(0, 20) + "\n"
            + SessionPair.PSK.substring(20) + "\n");

        String tooShort = assertThrows(IllegalArgumentException.class,
            () -> AeadSettings.parse(Map.of("psk", shortKey))).getMessage();
        String garbled = assertThrows(IllegalArgumentException.class,
            () -> AeadSettings.parse(Map.of("psk", notBase64))).getMessage();
        String both = assertThrows(IllegalArgumentException.class,
            () -> AeadSettings.parse(Map.of("psk", SessionPair.PSK, "pskFile", keyFile.toString()))).getMessage();
        String missing = assertThrows(IllegalArgumentException.class,
            () -> AeadSettings.parse(Map.of("pskFile", dir.resolve("absent").toString()))).getMessage();
        AeadSettings fromFile = AeadSettings.parse(Map.of("pskFile", keyFile.toString()));

        assertTrue(tooShort.startsWith("the aead pre-shared key has 16 bytes; it needs at least 32"), tooShort);
        assertEquals("the configured psk is not base64; write the key's bytes in base64, e.g. from "
            + "'head -c 32 /dev/urandom | base64'", garbled);
        assertEquals("configuration io.polylink.method.crypto sets both psk and pskFile; keep one", both);
        assertTrue(missing.startsWith("cannot read the aead pskFile " + dir.resolve("absent")), missing);
        for (String message : List.of(tooShort, garbled, both, missing)) {
            assertFalse(message.contains(shortKey) || message.contains(notBase64) || message.contains(SessionPair.PSK));
        }
        assertArrayEquals(AeadSettings.parse(Map.of("psk", SessionPair.PSK)).psk().helloKey(), fromFile.psk().helloKey(),
            "the file holds the same key, whitespace aside");
        assertEquals("pre-shared key of 32 bytes", fromFile.psk().toString());
    }

    @Test
    void badParametersAreRefusedByName() {
        Map<String, String> cases = Map.of(
            "cipher", "aead cipher 'rot13' is not one of [aes-256-gcm, chacha20-poly1305]",
            "provider", "aead provider 'rot13' is not one of [conscrypt, jdk]",
            "scope", "aead scope 'rot13' is not one of [always, other-host, other-site, never]",
            "rekeyFrames", "aead property rekeyFrames='rot13' is not an integer");
        cases.forEach((key, expected) -> assertEquals(expected, assertThrows(IllegalArgumentException.class,
            () -> AeadSettings.parse(Map.of("psk", SessionPair.PSK, key, "rot13"))).getMessage()));
        assertEquals("aead rekeyFrames 16777217 is outside 1..16777216", assertThrows(IllegalArgumentException.class,
            () -> AeadSettings.parse(Map.of("psk", SessionPair.PSK, "rekeyFrames", 1 << 24 | 1))).getMessage());
    }

    @Test
    void aScopeThatExcludesAConnectionRefusesToOpenASessionRatherThanRunWithoutEncryption() {
        ContextId self = ContextId.random();
        ContextId other = ContextId.random();
        AeadTransform never = SessionPair.transform(Map.of("scope", "never"));
        AeadTransform otherHost = SessionPair.transform(Map.of("scope", "other-host"));

        LinkException refusedAlways = assertThrows(LinkException.class, () -> never.open(new QueuePeer(self, other)));
        LinkException refusedHere = assertThrows(LinkException.class, () -> otherHost.open(new QueuePeer(self, self)));
        QueuePeer elsewhere = new QueuePeer(self, other);
        assertNotNull(otherHost.open(elsewhere));

        assertEquals("aead is configured with scope=never (io.polylink.method.crypto); the stack is refused, never "
            + "run unencrypted", refusedAlways.getMessage());
        assertTrue(refusedHere.getMessage().startsWith("aead is configured with scope=other-host and this link stays "
            + "within this context"), refusedHere.getMessage());
        assertEquals(1, elsewhere.sent.size(), "a session that opens sends its hello");
    }

    @Test
    void otherHostAndOtherSiteRefuseAeadOnlyWhereThePeerRunsNearer() {
        ContextId self = ContextId.random();
        ContextId other = ContextId.random();
        AeadTransform otherHost = SessionPair.transform(Map.of("scope", "other-host"));
        AeadTransform otherSite = SessionPair.transform(Map.of("scope", "other-site"));

        LinkException sameHost = assertThrows(LinkException.class,
            () -> otherHost.open(new QueuePeer(self, other, PeerLocation.SAME_HOST)));
        LinkException sameSite = assertThrows(LinkException.class,
            () -> otherSite.open(new QueuePeer(self, other, PeerLocation.SAME_SITE)));
        assertNotNull(otherHost.open(new QueuePeer(self, other, PeerLocation.SAME_SITE)));
        assertNotNull(otherSite.open(new QueuePeer(self, other, PeerLocation.OTHER_SITE)));

        assertTrue(sameHost.getMessage().startsWith("aead is configured with scope=other-host and this link stays "
            + "within this host"), sameHost.getMessage());
        assertTrue(sameSite.getMessage().startsWith("aead is configured with scope=other-site and this link stays "
            + "within this site"), sameSite.getMessage());
    }
}
