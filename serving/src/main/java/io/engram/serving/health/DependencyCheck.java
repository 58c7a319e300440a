package io.engram.serving.health;

import io.vertx.core.Future;
import java.util.function.Supplier;

/** One dependency's readiness probe: succeeds when the dependency answers. */
public record DependencyCheck(String name, Supplier<Future<?>> probe) {}
