package io.loopx.api.internal;

import io.loopx.api.ApiRange;
import org.apiguardian.api.API;

/**
 * The rule "an extension's {@code requires_loopx_api} admits this runtime's API version" ({@link
 * ApiRange#admitsCurrent()}) and its one sentence, {@code requires LoopX extension API <range>, but
 * this runtime provides 1}. The manifest reader gives it as the detail of its {@code
 * requires_loopx_api} key; resolution and the activation check name the extension first ({@code
 * extension `<id>` requires LoopX extension API …}).
 */
@API(status = API.Status.INTERNAL, since = "0.3")
public final class ApiCompatibility {
  private ApiCompatibility() {}

  /** Returns the sentence for a {@code required} range that does not admit this runtime. */
  public static String detail(ApiRange required) {
    return "requires LoopX extension API "
        + required
        + ", but this runtime provides "
        + ApiRange.CURRENT_API_VERSION;
  }

  /** Returns the sentence as above, naming the extension (or provider) {@code extension} first. */
  public static String message(Object extension, ApiRange required) {
    return "extension `" + extension + "` " + detail(required);
  }
}
