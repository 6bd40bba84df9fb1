package io.polylink.spi;

/**
 * A method's answer to "can you reach this address from here?".
 *
 * @param applicable yes or no
 * @param reason why, short and specific: {@code "same host"}, {@code "other host"}
 */
public record Applicability(boolean applicable, String reason) {

    /**
     * @param reason why it applies
     * @return a yes
     */
    public static Applicability yes(String reason) {
        return new Applicability(true, reason);
    }

    /**
     * @param reason why not, naming what was wrong
     * @return a no
     */
    public static Applicability no(String reason) {
        return new Applicability(false, reason);
    }
}
