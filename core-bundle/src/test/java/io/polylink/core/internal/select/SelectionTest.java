package io.polylink.core.internal.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.Explanation;
import io.polylink.NoApplicableMethodException;
import io.polylink.Startpoint;
import io.polylink.Verdict;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.PipeMethod;
import io.polylink.spi.SelectionPolicy;
import io.polylink.spi.SelectionRequest;
import io.polylink.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Selection between two contexts of one JVM, each with two pipe methods: fast and slow. */
class SelectionTest {

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final EmbeddedContext a = EmbeddedContext.open();
    private final EmbeddedContext b = EmbeddedContext.open();
    private final PipeMethod fastA = new PipeMethod(network, "fast");
    private final PipeMethod slowA = new PipeMethod(network, "slow");
    private final PipeMethod fastB = new PipeMethod(network, "fast");
    private final PipeMethod slowB = new PipeMethod(network, "slow");
    private final List<Integer> seen = new CopyOnWriteArrayList<>();
    private Endpoint target;

    SelectionTest() {
        a.add(fastA, 10).add(slowA, 20);
        b.add(fastB, 10).add(slowB, 20);
        target = b.context().createEndpoint().register(1, (e, m) -> seen.add(m.getInt()));
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        Await.noThreads("polylink-");
    }

    /** The startpoint as context a would get it: through its text form. */
    private Startpoint fromA() {
        return a.context().startpoint(target.startpoint().toText());
    }

    private String chosen(Startpoint s) {
        return s.explain().get(0).chosen().map(e -> e.descriptor().stack()).orElse("none");
    }

    private void sendAndAwait(Startpoint s, int value) {
        s.send(1, a.context().allocateBuffer(4).putInt(value));
        Await.until(() -> seen.contains(value), Duration.ofSeconds(5), () -> value + " not delivered; saw " + seen);
    }

    @Test
    void tableListsLocalThenMethodsInPreferenceOrder() {
        assertEquals(List.of("local", "fast", "slow"),
            b.context().descriptorTable().entries().stream().map(Descriptor::stack).toList());
    }

    @Test
    void firstApplicableEntryIsChosenAndExplainSaysWhyForEveryEntry() {
        Startpoint s = fromA();
        sendAndAwait(s, 1);

        Explanation e = s.explain().get(0);
        assertEquals("first-applicable", e.policy());
        assertEquals(List.of(Verdict.REFUSED, Verdict.CHOSEN, Verdict.NOT_CONSIDERED),
            e.entries().stream().map(Explanation.Entry::verdict).toList());
        assertEquals("other context", e.entries().get(0).reason());
        assertEquals("entry 2 was chosen first", e.entries().get(2).reason());
        assertTrue(e.toString().contains("2. fast chosen (pipe in this JVM)"), e::toString);
    }

    @Test
    void reorderingTheTableChangesTheChoice() {
        Startpoint s = fromA();
        sendAndAwait(s, 1);
        assertEquals("fast", chosen(s));

        s.editTable(t -> t.prefer("slow"));
        sendAndAwait(s, 2);

        assertEquals("slow", chosen(s));
        assertEquals(2, slowA.statistics().messagesSent(), "the flow's announcement on the new connection, and the RSR");
    }

    @Test
    void pinAndForbidRuleEntriesOut() {
        Startpoint pinned = fromA().pin("slow");
        assertEquals("slow", chosen(pinned));
        assertEquals(Verdict.EXCLUDED, pinned.explain().get(0).entries().get(1).verdict());
        assertEquals("startpoint is pinned to slow", pinned.explain().get(0).entries().get(1).reason());

        Startpoint forbidden = fromA().forbid("fast");
        assertEquals("slow", chosen(forbidden));
        assertEquals("fast is forbidden by this startpoint", forbidden.explain().get(0).entries().get(1).reason());
    }

    @Test
    void noApplicableMethodNamesEveryEntryAndWhyItWasRefused() {
        fastA.refuse("other host");
        Startpoint s = fromA().forbid("slow");

        NoApplicableMethodException e = assertThrows(NoApplicableMethodException.class,
            () -> s.send(1, a.context().allocateBuffer(0)));

        assertEquals("no applicable method for endpoint " + target.id() + "@" + b.context().id() + ": "
            + "local refused (other context), fast refused (other host), "
            + "slow excluded (slow is forbidden by this startpoint); "
            + "install a method the target offers, or change the startpoint's table", e.getMessage());
        assertEquals(1, s.statistics().errors());
    }

    @Test
    void aMethodMissingHereIsReportedAsNotInstalled() {
        a.remove(slowA);
        Explanation e = fromA().forbid("fast").explain().get(0);
        assertEquals(Verdict.NOT_INSTALLED, e.entries().get(2).verdict());
        assertEquals("method slow is not installed here", e.entries().get(2).reason());
    }

    @Test
    void anEntryThatFailsToConnectIsRefusedWithTheErrorAndTheNextOneIsUsed() {
        Startpoint s = fromA();
        b.remove(fastB);

        sendAndAwait(s, 7);

        Explanation e = s.explain().get(0);
        assertEquals("slow", e.chosen().orElseThrow().descriptor().stack());
        assertEquals(Verdict.REFUSED, e.entries().get(1).verdict());
        assertTrue(e.entries().get(1).reason().matches("pipe pipe:\\d+ refused: nobody listens there"),
            e.entries().get(1).reason());
    }

    @Test
    void removingTheMethodInUseMovesTheLinkToTheNextEntry() {
        Startpoint s = fromA();
        sendAndAwait(s, 1);
        assertEquals("fast", chosen(s));

        a.remove(fastA);
        sendAndAwait(s, 2);

        assertEquals("slow", chosen(s));
        assertEquals(List.of("local", "slow"),
            a.context().descriptorTable().entries().stream().map(Descriptor::stack).toList());
    }

    @Test
    void aCustomPolicyDecidesAndIsNamedInTheExplanation() {
        SelectionPolicy lastApplicable = new SelectionPolicy() {
            @Override
            public String name() {
                return "last-applicable";
            }

            @Override
            public Explanation select(SelectionRequest request) {
                int n = request.table().size();
                int pick = -1;
                for (int i = n - 1; i >= 0 && pick < 0; i--) {
                    pick = request.assess(i).usable() ? i : -1;
                }
                List<Explanation.Entry> entries = new java.util.ArrayList<>();
                for (int i = 0; i < n; i++) {
                    entries.add(new Explanation.Entry(i, request.table().get(i),
                        i == pick ? Verdict.CHOSEN : Verdict.NOT_CONSIDERED, i == pick ? "last usable" : "-"));
                }
                return new Explanation(request.target(), request.endpoint(), name(), entries);
            }
        };
        a.add(lastApplicable);
        Startpoint s = fromA();
        sendAndAwait(s, 3);
        assertEquals("slow", chosen(s));
        assertEquals("last-applicable", s.explain().get(0).policy());
        Context ctx = a.context();
        a.remove(lastApplicable);
        assertEquals("fast", chosen(ctx.startpoint(target.startpoint().toText())));
    }
}
