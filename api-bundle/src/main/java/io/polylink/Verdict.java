package io.polylink;

/** What selection made of one descriptor-table entry. */
public enum Verdict {
    /** The entry carries the link. */
    CHOSEN,
    /** Installed here but not usable for this target (the reason says why). */
    REFUSED,
    /** The entry's method or a transform of its stack is not installed in this context. */
    NOT_INSTALLED,
    /** The startpoint's settings rule the entry out (forbidden, or another stack is pinned). */
    EXCLUDED,
    /**
     * Not chosen though it may be usable: an earlier entry was chosen, or the policy preferred
     * another (the reason says why).
     */
    NOT_CONSIDERED
}
