/**
 * The receipts of the extension lifecycle: {@link io.loopx.runtime.lifecycle.LifecycleReceipt} for
 * install, upgrade, enable, disable, rollback and uninstall, {@link
 * io.loopx.runtime.lifecycle.DoctorReceipt} and {@link io.loopx.runtime.lifecycle.DoctorAllReceipt}
 * for the doctor, {@link io.loopx.runtime.lifecycle.ListReceipt} for list, and the {@code
 * doctor_not_ready} failure. A preview plans without applying.
 */
package io.loopx.runtime.lifecycle;
