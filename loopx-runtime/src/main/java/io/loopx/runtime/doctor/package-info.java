/**
 * The doctor: the status ladder of an extension's runtime ({@code loopx_extension_doctor_v0}),
 * computed by a pure function from what was observed (runtime resolution, probe outcome).
 */
package io.loopx.runtime.doctor;
