package io.loopx.runtime.events;

import org.apiguardian.api.API;

/**
 * An event of one {@code Loopx}. Immutable; delivered to the listeners on the thread that did the
 * work, after the durable write it reports and after the state lock was released, in commit order
 * (docs/observing.md). Worker events are delivered on the thread that started or ended the worker,
 * which may be one of LoopX's own (docs/observing.md#delivery). Changes committed by other
 * processes or other {@code Loopx} instances on the same state emit nothing here. Events are
 * interfaces implemented by LoopX only; hosts do not implement them.
 */
@API(status = API.Status.STABLE, since = "1.0")
public sealed interface LoopxEvent
    permits LifecycleTransition,
        DoctorResult,
        DoctorProgress,
        CallCompleted,
        StoreConflict,
        WorkerEvent {}
