/**
 * The lifecycle state machine: install, upgrade, enable, disable, rollback, doctor (one or all
 * enabled) and list. Decisions live in one pure function, {@code LifecyclePlanner.plan}; preview =
 * plan without apply.
 */
package io.loopx.runtime.lifecycle;
