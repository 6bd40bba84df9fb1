package io.polylink;

/**
 * No entry of a target's descriptor table can be used. The message names every entry and why it
 * was refused; {@link #explanation()} has the same as data.
 */
public class NoApplicableMethodException extends PolylinkException {
    private static final long serialVersionUID = 1L;

    private final transient Explanation explanation;

    /** @param explanation the selection that found nothing */
    public NoApplicableMethodException(Explanation explanation) {
        super(message(explanation));
        this.explanation = explanation;
    }

    /** @return the verdict on every entry */
    public Explanation explanation() {
        return explanation;
    }

    private static String message(Explanation e) {
        if (e.entries().isEmpty()) {
            return "no applicable method for endpoint " + e.endpoint() + "@" + e.target()
                + ": its descriptor table is empty; install a method in that context";
        }
        StringBuilder out = new StringBuilder("no applicable method for endpoint ")
            .append(e.endpoint()).append('@').append(e.target()).append(": ");
        for (int i = 0; i < e.entries().size(); i++) {
            out.append(i == 0 ? "" : ", ").append(e.entries().get(i));
        }
        return out.append("; install a method the target offers, or change the startpoint's table")
            .toString();
    }
}
