package io.polylink.launcher.mpirun;

import java.util.ArrayList;
import java.util.List;

/**
 * A launcher template: the command that runs a command on another host, as words, with
 * {@code {host}} standing for the host's name ({@code ssh -o BatchMode=yes {host}},
 * {@code ip netns exec {host}}). Words are separated by blanks; single or double quotes keep blanks
 * inside one word. mpirun appends the command to run, in words that mean the same whether the
 * launcher runs them directly or through a remote shell.
 */
final class Launcher {

    static final String HOST = "{host}";

    private Launcher() {}

    /**
     * @return {@code template}, if it splits into words and names {@code {host}}
     * @throws IllegalArgumentException saying what is wrong with it
     */
    static String check(String template) {
        List<String> words = words(template);
        if (words.isEmpty() || words.stream().noneMatch(w -> w.contains(HOST))) {
            throw new IllegalArgumentException("--launcher '" + template + "' must name the host as " + HOST
                + ", e.g. 'ssh -o BatchMode=yes " + HOST + "'");
        }
        return template;
    }

    /**
     * @return the template's words for {@code host}, then {@code command}
     */
    static List<String> command(String template, String host, List<String> command) {
        List<String> out = new ArrayList<>();
        for (String w : words(template)) {
            out.add(w.replace(HOST, host));
        }
        out.addAll(command);
        return out;
    }

    private static List<String> words(String template) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("--launcher '" + template + "' has an unclosed " + quote);
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }
}
