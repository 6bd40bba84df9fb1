package io.polylink;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * One entry of a descriptor table: a method stack and what its base method needs to reach a
 * context (for {@code tcp}, host and port). The address is opaque to the core and to users.
 */
public final class Descriptor {

    /** Longest stack text, in bytes. */
    public static final int MAX_STACK_LENGTH = 255;
    /** Longest address, in bytes. */
    public static final int MAX_ADDRESS_LENGTH = 1024;

    private final String stack;
    private final byte[] address;
    private final List<String> transforms;
    private final String method;

    /**
     * @param stack transforms joined by '+', then '/', then the method, e.g. {@code lz4+aead/tcp};
     *     or just the method, e.g. {@code tcp}
     * @param address the base method's address bytes (copied)
     * @throws IllegalArgumentException if the stack is malformed or either part is too long
     */
    public Descriptor(String stack, byte[] address) {
        this.stack = Objects.requireNonNull(stack, "stack");
        if (address.length > MAX_ADDRESS_LENGTH) {
            throw new IllegalArgumentException(
                "descriptor address of " + address.length + " bytes for '" + stack
                    + "' exceeds " + MAX_ADDRESS_LENGTH);
        }
        this.address = address.clone();
        int slash = stack.lastIndexOf('/');
        this.method = stack.substring(slash + 1);
        this.transforms = slash < 0 ? List.of() : List.of(stack.substring(0, slash).split("\\+", -1));
        if (stack.length() > MAX_STACK_LENGTH || !validName(method)
            || !transforms.stream().allMatch(Descriptor::validName)) {
            throw new IllegalArgumentException(
                "malformed method stack '" + stack
                    + "': expected names of [a-z0-9-] like 'tcp' or 'lz4+aead/tcp'");
        }
    }

    /**
     * @param name a method or transform name
     * @return whether it is 1 to 32 characters of lower-case letters, digits and '-'
     */
    public static boolean validName(String name) {
        if (name.isEmpty() || name.length() > 32) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** @return the full stack text, e.g. {@code lz4/tcp} */
    public String stack() {
        return stack;
    }

    /** @return the base method, e.g. {@code tcp} */
    public String method() {
        return method;
    }

    /** @return the transforms in send order, e.g. {@code [lz4, aead]}; empty for a bare method */
    public List<String> transforms() {
        return transforms;
    }

    /** @return a copy of the address bytes */
    public byte[] address() {
        return address.clone();
    }

    /** @return the address length in bytes */
    public int addressLength() {
        return address.length;
    }

    /**
     * @param stack another stack, e.g. {@code lz4/tcp}
     * @return a descriptor for {@code stack} with this descriptor's address
     */
    public Descriptor withStack(String stack) {
        return new Descriptor(stack, address);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Descriptor d && stack.equals(d.stack) && Arrays.equals(address, d.address);
    }

    @Override
    public int hashCode() {
        return stack.hashCode() * 31 + Arrays.hashCode(address);
    }

    @Override
    public String toString() {
        return stack + "[" + HexFormat.of().formatHex(address) + "]";
    }
}
