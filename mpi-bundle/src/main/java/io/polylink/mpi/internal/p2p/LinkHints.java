package io.polylink.mpi.internal.p2p;

import io.polylink.Descriptor;
import io.polylink.Startpoint;
import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A communicator's hints about the method stacks its links take, from its info keys:
 * {@value #STACK} pins one stack ({@code shm}, {@code tcp}, {@code lz4/tcp}), {@value #PREFER}
 * moves stacks to the front of each rank's descriptor table, {@value #FORBID} rules out methods,
 * transforms or stacks. A communicator without them uses the rank's own links.
 *
 * @param stack the stack to pin, or {@code null}
 * @param prefer stacks to try first, in order
 * @param forbid methods, transforms or stacks never to use
 */
public record LinkHints(String stack, List<String> prefer, List<String> forbid) {

    public static final String STACK = "polylink.stack";
    public static final String PREFER = "polylink.prefer";
    public static final String FORBID = "polylink.forbid";
    /** Read-only: the stack that reaches each rank of the communicator, in rank order. */
    public static final String STACKS = "polylink.stacks";
    /** Read-only: how far each rank of the communicator runs from this one, in rank order. */
    public static final String LOCATIONS = "polylink.locations";

    /** No hints: the rank's own links. */
    public static final LinkHints NONE = new LinkHints(null, List.of(), List.of());

    /** A stack as Polylink writes one: transforms joined by '+', '/', a method; or a method alone. */
    private static final Pattern STACK_TEXT = Pattern.compile("([a-z0-9][a-z0-9-]*(\\+[a-z0-9][a-z0-9-]*)*/)?[a-z0-9][a-z0-9-]*");

    public LinkHints {
        prefer = List.copyOf(prefer);
        forbid = List.copyOf(forbid);
    }

    /**
     * @return the hints {@code info} holds
     * @throws MpiError {@code ERR_INFO_VALUE} naming the key whose value is not a stack or a list of them
     */
    public static LinkHints of(Map<String, String> info) {
        String stack = info.get(STACK);
        if (stack != null) {
            stack = stack.trim();
            check(STACK, stack, stack);
        }
        List<String> prefer = list(info, PREFER);
        List<String> forbid = list(info, FORBID);
        return stack == null && prefer.isEmpty() && forbid.isEmpty() ? NONE : new LinkHints(stack, prefer, forbid);
    }

    private static List<String> list(Map<String, String> info, String key) {
        String text = info.get(key);
        if (text == null) {
            return List.of();
        }
        List<String> items = Arrays.stream(text.split(",")).map(String::trim).toList();
        for (String item : items) {
            check(key, text, item);
        }
        return items;
    }

    private static void check(String key, String text, String item) {
        if (!STACK_TEXT.matcher(item).matches() || item.length() > Descriptor.MAX_STACK_LENGTH) {
            throw new MpiError(ErrorClass.ERR_INFO_VALUE, "info " + key + "='" + text + "': '" + item + "' is not a "
                + "method stack; write a method (shm, tcp) or transforms and a method (lz4/tcp, lz4+aead/tcp)"
                + (key.equals(STACK) ? "" : ", several separated by commas"));
        }
    }

    /** @return whether these are the rank's own links, with no hint */
    public boolean none() {
        return stack == null && prefer.isEmpty() && forbid.isEmpty();
    }

    /** @return a copy of {@code base} that follows these hints; {@code base} is left as it is */
    Startpoint apply(Startpoint base) {
        Startpoint s = base.copy();
        if (!prefer.isEmpty()) {
            s.editTable(t -> t.prefer(prefer.toArray(String[]::new)));
        }
        forbid.forEach(s::forbid);
        if (stack != null) {
            s.pin(stack);
        }
        return s;
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        if (stack != null) {
            out.append(STACK).append('=').append(stack);
        }
        if (!prefer.isEmpty()) {
            out.append(out.isEmpty() ? "" : ", ").append(PREFER).append('=').append(String.join(",", prefer));
        }
        if (!forbid.isEmpty()) {
            out.append(out.isEmpty() ? "" : ", ").append(FORBID).append('=').append(String.join(",", forbid));
        }
        return out.toString();
    }
}
