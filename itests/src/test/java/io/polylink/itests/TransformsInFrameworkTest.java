package io.polylink.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.Startpoint;
import io.polylink.testkit.Await;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Hashtable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.service.ServiceExtension;

/**
 * The lz4 and aead bundles in Felix with their library bundles (lz4-java, Conscrypt and its
 * native code): they resolve, activate, and carry RSRs; aead only once it has a key.
 */
@ExtendWith(FailureDigest.class)
@ExtendWith(ServiceExtension.class)
class TransformsInFrameworkTest {

    @InjectService(timeout = 10_000)
    Context context;

    @InjectService(timeout = 10_000)
    ConfigurationAdmin configurations;

    @Test
    void lz4AndAeadBundlesStackOntoALinkOnceAeadHasAKey() throws Exception {
        Await.until(() -> context.transforms().contains("lz4"), Duration.ofSeconds(10), context.transforms()::toString);
        assertTrue(!context.transforms().contains("aead"), "aead must stay off without a pre-shared key");

        Configuration aead = configurations.getConfiguration("io.polylink.method.crypto", "?");
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put("psk", Base64.getEncoder().encodeToString(new byte[32]).replace('A', 'Q'));
        aead.update(properties);
        try {
            Await.until(() -> context.transforms().contains("aead"), Duration.ofSeconds(10),
                () -> "aead did not start with a key (Conscrypt inside Felix?): " + context.transforms());
            List<byte[]> seen = new CopyOnWriteArrayList<>();
            Endpoint sink = context.createEndpoint().register(1, (e, m) -> seen.add(m.getBytes()));
            Startpoint both = sink.startpoint().pin("lz4+aead/local")
                .editTable(t -> t.insert(0, new Descriptor("lz4+aead/local", new byte[0])));
            byte[] text = "the same words again and again; ".repeat(2000).getBytes();

            both.send(1, context.allocateBuffer(text.length + 8).putBytes(text));

            Await.until(() -> seen.size() == 1, Duration.ofSeconds(10), () -> "RSR over lz4+aead/local lost");
            assertTrue(Arrays.equals(text, seen.get(0)), "payload changed on the way");
            assertEquals("lz4+aead/local", both.explain().get(0).chosen().orElseThrow().descriptor().stack());
        } finally {
            aead.delete();
        }
        Await.until(() -> !context.transforms().contains("aead"), Duration.ofSeconds(10),
            () -> "aead stayed installed after its key was withdrawn");
    }
}
