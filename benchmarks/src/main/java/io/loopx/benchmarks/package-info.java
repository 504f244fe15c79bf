/** JMH benchmarks of LoopX hot paths, each paired with its baseline. */
package io.loopx.benchmarks;
