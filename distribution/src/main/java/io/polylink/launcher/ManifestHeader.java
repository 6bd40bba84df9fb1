package io.polylink.launcher;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reading OSGi manifest headers: clauses split by commas, parts by semicolons, outside double quotes. */
final class ManifestHeader {

    private ManifestHeader() {}

    /** @return each package an Export-Package header names, with its version ("0.0.0" if it gives none) */
    static Map<String, String> exportedVersions(String header) {
        Map<String, String> versions = new LinkedHashMap<>();
        for (String clause : split(header, ',')) {
            List<String> packages = new ArrayList<>();
            String version = "0.0.0";
            for (String part : split(clause, ';')) {
                int equals = part.indexOf('=');
                if (equals < 0) {
                    packages.add(part.strip());
                } else if (part.substring(0, equals).strip().equals("version")) {
                    version = part.substring(equals + 1).strip().replace("\"", "");
                }
            }
            for (String p : packages) {
                versions.put(p, version);
            }
        }
        return versions;
    }

    private static List<String> split(String text, char separator) {
        List<String> parts = new ArrayList<>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == separator && !quoted) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts;
    }
}
