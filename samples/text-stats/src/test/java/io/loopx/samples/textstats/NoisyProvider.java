package io.loopx.samples.textstats;

import io.loopx.api.provider.ProviderHandler;
import io.loopx.api.provider.ProviderMain;
import tools.jackson.databind.node.ObjectNode;

/**
 * A provider whose handler prints to {@link System#out}, as careless libraries do; {@link
 * ProviderMain#run} must keep that off stdout. Started as a child JVM by {@link
 * ProviderProcessTest}.
 */
final class NoisyProvider {
  private NoisyProvider() {}

  public static void main(String[] args) {
    TextStatsProvider real = new TextStatsProvider();
    ProviderMain.run(
        args,
        new ProviderHandler() {
          @Override
          public String responseSchemaVersion() {
            return real.responseSchemaVersion();
          }

          @Override
          public ObjectNode handle(ObjectNode request) {
            System.out.println("noise from the handler");
            System.out.flush();
            return real.handle(request);
          }
        });
  }
}
