/**
 * Message buffers: the application's, which grow up to the context's bound and move into shared
 * stores once sent twice so flows keep them without copying; the receiving thread's, which wrap
 * a received payload in place; and the bounded scratch buffers transforms write into. A buffer
 * belongs to one thread at a time; stores are counted and pooled. Made by the context for the
 * application and by channels for their readers.
 */
package io.polylink.core.internal.buffer;
