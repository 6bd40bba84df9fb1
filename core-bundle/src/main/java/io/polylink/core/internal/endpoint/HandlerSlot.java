package io.polylink.core.internal.endpoint;

import io.polylink.Delivery;
import io.polylink.Handler;

/** A registered handler and where it runs. */
record HandlerSlot(Handler handler, Delivery delivery) {}
