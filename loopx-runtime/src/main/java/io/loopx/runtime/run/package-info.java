/**
 * The managed run of standalone extensions (docs/contract/run.md): the request ({@link
 * io.loopx.runtime.run.RunRequest}: input, deadline, one-shot) and the receipt ({@link
 * io.loopx.runtime.run.RunReceipt}, {@code loopx_extension_run_receipt_v0}) that classifies what
 * the provider did. Hosts start a run through {@link
 * io.loopx.runtime.Loopx#run(io.loopx.runtime.run.RunRequest, io.loopx.runtime.Mode)}.
 */
package io.loopx.runtime.run;
