package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.Explanation;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.crypto.internal.AeadTransform;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.testkit.Await;
import io.polylink.testkit.WireTap;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Nexus' "encrypted outside a site but not within" as a configuration line: three contexts on
 * three hosts (their {@code hostId}s), two in site a and one in site b, each advertising
 * {@code aead/tcp} before {@code tcp} with aead scoped {@code other-site}. Frames to the other
 * site are encrypted and frames within the site are not, read from the bytes handed to tcp; each
 * link's explanation says where its target runs.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SitesIT {

    private final List<EmbeddedContext> contexts = new ArrayList<>();
    private final String psk;

    SitesIT() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        psk = Base64.getEncoder().encodeToString(key);
    }

    @AfterEach
    void close() {
        contexts.forEach(EmbeddedContext::close);
        Await.noThreads("polylink-");
    }

    private EmbeddedContext context(String host, String site, WireTap tap) {
        EmbeddedContext c = EmbeddedContext.open(Map.of("hostId", host, "site", site, "table", List.of("aead/tcp", "tcp")))
            .add(tap, 50)
            .add(AeadTransform.configured(Map.of("psk", psk, "provider", "jdk", "scope", "other-site")));
        contexts.add(c);
        return c;
    }

    @Test
    void framesToAnotherSiteAreEncryptedAndFramesWithinTheSiteAreNot() {
        WireTap fromA1 = new WireTap(new TcpMethod(Map.of("bindAddress", "127.0.0.1")));
        Context a1 = context("host-a1", "a", fromA1).context();
        Context a2 = context("host-a2", "a", new WireTap(new TcpMethod(Map.of("bindAddress", "127.0.0.1")))).context();
        Context b1 = context("host-b1", "b", new WireTap(new TcpMethod(Map.of("bindAddress", "127.0.0.1")))).context();
        List<String> received = new CopyOnWriteArrayList<>();
        Endpoint atA2 = a2.createEndpoint().register(1, (e, m) -> received.add(m.getString()));
        Endpoint atB1 = b1.createEndpoint().register(1, (e, m) -> received.add(m.getString()));
        Startpoint toA2 = a1.startpoint(atA2.startpoint().toText());
        Startpoint toB1 = a1.startpoint(atB1.startpoint().toText());

        for (int i = 0; i < 20; i++) {
            toA2.send(1, a1.allocateBuffer(64).putString("WITHIN-SITE-A #" + i));
            toB1.send(1, a1.allocateBuffer(64).putString("ACROSS-TO-SITE-B #" + i));
        }
        Await.until(() -> received.size() == 40, Duration.ofSeconds(20), () -> received.size() + " of 40 arrived");

        Explanation within = toA2.explain().get(0);
        Explanation across = toB1.explain().get(0);
        assertEquals("tcp", within.chosen().orElseThrow().descriptor().stack(), within.toString());
        assertEquals("aead/tcp", across.chosen().orElseThrow().descriptor().stack(), across.toString());
        assertTrue(within.toString().contains("scope=other-site"), within.toString());
        assertTrue(within.toString().contains("on another host of this site, a"), within.toString());
        assertTrue(across.toString().contains("on another host (machine "), across.toString());
        assertTrue(across.toString().contains("site b; here site a"), across.toString());
        assertTrue(fromA1.sentContains(ascii("WITHIN-SITE-A #19")), "frames within the site go in the clear");
        assertFalse(fromA1.sentContains(ascii("ACROSS-TO-SITE-B")), "a frame to the other site went in the clear");
        assertTrue(fromA1.sent.stream().anyMatch(f -> "aead".equals(fromA1.transforms(f))),
            "no frame went on the aead stack");
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
