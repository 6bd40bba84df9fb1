package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.LinkException;
import io.polylink.MessageBuffer;
import io.polylink.NoApplicableMethodException;
import io.polylink.Startpoint;
import io.polylink.method.crypto.internal.AeadTransform;
import io.polylink.testkit.Await;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node that requires aead of every peer ({@code require=aead}, {@code table=aead/tcp}), over
 * real tcp from this JVM: a peer without the key that writes itself a plain tcp entry is refused
 * in band and none of its RSRs is run, and the node never answers in the clear either, even to a
 * keyed peer whose reply startpoint lists plain tcp first.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RequiredStacksAcrossProcessesIT {

    private static final int SINK = 7;

    @TempDir
    Path temp;

    private NodeProcess node;
    private Driver driver;

    @AfterEach
    void cleanUp() {
        if (driver != null) {
            driver.close();
        }
        if (node != null) {
            node.close();
        }
        Await.noThreads("polylink-");
    }

    private void awaitLog(String line) {
        Await.until(() -> node.log().contains(line), Duration.ofSeconds(20),
            () -> "the node never logged '" + line + "':\n" + node.log());
    }

    @Test
    void aNodeRequiringAeadNeitherRunsNorAnswersPlaintext() throws Exception {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        String psk = Base64.getEncoder().encodeToString(key);
        Path home = Installation.copy(temp.resolve("home"));
        Installation.set(home, "io.polylink.method.crypto.cfg", "psk", psk);
        Installation.set(home, "io.polylink.core.cfg", "table", "aead/tcp");
        Installation.set(home, "io.polylink.core.cfg", "require", "aead");
        node = NodeProcess.start(home, "b", "-Xmx256m");
        driver = new Driver(home);
        Context me = driver.context();
        List<Long> replies = new CopyOnWriteArrayList<>();
        Endpoint sink = me.createEndpoint().register(SINK, (e, m) -> replies.add(m.getLong()));
        Startpoint atB = driver.lookup("b");
        assertEquals(List.of("local", "aead/tcp"), stacks(atB), "the node advertises only what it accepts");
        Descriptor keyed = atB.targets().get(0).table().entries().get(1);
        MessageBuffer message = me.allocateBuffer(256);

        // Without the key: a plain tcp entry at the node's address, written by hand.
        Startpoint plain = me.startpoint(atB.toText()).editTable(t -> t.insert(0, keyed.withStack("tcp"))).pin("tcp");
        plain.send(Driver.ECHO, message.clear().putStartpoint(sink.startpoint()).putInt(SINK).putLong(1));

        awaitLog("refusing stack 'tcp' on tcp connection to " + me.id());
        awaitLog(": this context requires aead of every peer (require=aead in io.polylink.core); the peer moves its "
            + "link to another stack");
        awaitLog("frame on refused stack 'tcp' from " + me.id() + " dropped");
        assertEquals(List.of(), replies, "the node ran a plaintext echo");
        Driver.await(() -> {
            try {
                plain.send(Driver.ECHO, message.clear().putStartpoint(sink.startpoint()).putInt(SINK).putLong(2));
                return false;
            } catch (LinkException | NoApplicableMethodException refused) {
                return refused.getMessage().contains("refused tcp: this context requires aead of every peer");
            }
        }, Duration.ofSeconds(20), () -> "the sender never heard why its stack was refused; links "
            + driver.embedded().links());

        // With the key: the request goes over aead/tcp, and a reply startpoint listing only plain tcp gets nothing.
        driver.embedded().add(AeadTransform.configured(Map.of("psk", psk, "provider", "jdk")));
        Startpoint sealed = me.startpoint(atB.toText());
        sealed.send(Driver.ECHO, message.clear().putStartpoint(sink.startpoint()).putInt(SINK).putLong(3));
        awaitLog("no applicable method for endpoint " + sink.id() + "@" + me.id() + ": local refused (other context), "
            + "tcp refused (this context requires aead of every peer (require=aead in io.polylink.core))");
        assertEquals(List.of(), replies, "the node answered in plaintext");

        // A reply startpoint listing plain tcp first, then aead/tcp: the node skips plain tcp.
        Descriptor hereTcp = me.descriptorTable().entries().stream().filter(d -> d.stack().equals("tcp"))
            .findFirst().orElseThrow();
        Startpoint both = sink.startpoint().editTable(t -> t.insert(t.size(), hereTcp.withStack("aead/tcp")));
        assertEquals(List.of("local", "tcp", "aead/tcp"), stacks(both));
        for (long i = 4; i < 104; i++) {
            sealed.send(Driver.ECHO, message.clear().putStartpoint(both).putInt(SINK).putLong(i));
        }
        Await.until(() -> replies.size() == 100, Duration.ofSeconds(30), () -> replies.size() + " of 100 replies");
        assertTrue(replies.stream().allMatch(r -> r >= 4), "only the sealed replies came: " + replies);
    }

    private static List<String> stacks(Startpoint s) {
        return s.targets().get(0).table().entries().stream().map(Descriptor::stack).toList();
    }
}
