package io.polylink.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class RttChartTest {

    private static final List<String> CSV = List.of(PingPongRow.HEADER,
        "raw-nio,16,20000,13.22,6029.31,3.9",
        "raw-nio,1024,20000,18.21,10821.63,148.3",
        "polylink:tcp,16,20000,25.73,806.91,2.6",
        "polylink:tcp,1024,20000,28.40,800.77,141.8",
        "polylink:tcp,65536,1024,103.17,544.77,967.2");

    @Test
    void drawsOneMedianAndOnePercentileLinePerImplementationAsWellFormedSvg() throws Exception {
        String svg = RttChart.svg("title <&>", "options", PingPongRow.parse(CSV));

        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertEquals("svg", doc.getDocumentElement().getTagName());
        assertEquals(4, doc.getElementsByTagName("polyline").getLength(), "p50 and p99 for each of two impls");
        assertEquals(5, doc.getElementsByTagName("circle").getLength(), "one marker per row");
        assertTrue(svg.contains("title &lt;&amp;&gt;"));
        assertTrue(svg.contains(">64 KiB<") && svg.contains(">16 B<"), "size ticks at both ends");
        assertTrue(svg.contains(">10000<") && svg.contains(">10<"), "decades spanning every time");
    }

    @Test
    void refusesWhatLogAxesCannotShow() {
        List<PingPongRow> zero = PingPongRow.parse(List.of(PingPongRow.HEADER, "x,16,1,0.00,1.00,1.0"));
        assertThrows(IllegalArgumentException.class, () -> RttChart.svg("t", "", zero));
        assertThrows(IllegalArgumentException.class, () -> RttChart.svg("t", "", List.of()));
    }

    @Test
    void csvWithAnotherHeaderOrABadRowIsNamed() {
        IllegalArgumentException header = assertThrows(IllegalArgumentException.class,
            () -> PingPongRow.parse(List.of("impl,size", "x,1")));
        assertTrue(header.getMessage().contains(PingPongRow.HEADER));
        IllegalArgumentException row = assertThrows(IllegalArgumentException.class,
            () -> PingPongRow.parse(List.of(PingPongRow.HEADER, "x,16,1,fast,1.00,1.0")));
        assertTrue(row.getMessage().contains("x,16,1,fast,1.00,1.0"));
    }
}
