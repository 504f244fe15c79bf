package io.loopx.registry;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.ProviderId;
import io.loopx.api.spi.BuiltinContribution;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The first step of sealing (package-private): asks each built-in contribution, in order, for its
 * id and provider id, and admits it if the id is well-formed and neither id is taken. Fails with
 * {@code CONTRIBUTION_FAILED} when a contribution cannot report an id or its id is invalid, and
 * with {@code CATALOG_CONFLICT} on a duplicate contribution id or provider id.
 */
final class ContributionAdmission {
  private static final Pattern CONTRIBUTION_ID = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");
  private static final int CONTRIBUTION_ID_MAX = 48;

  /** An admitted contribution with the ids it reported. */
  record Admitted(BuiltinContribution contribution, String id, ProviderId providerId) {}

  private ContributionAdmission() {}

  static List<Admitted> admit(List<BuiltinContribution> contributions) {
    List<Admitted> admitted = new ArrayList<>();
    Map<String, Admitted> byId = new HashMap<>();
    Map<ProviderId, Admitted> byProvider = new HashMap<>();
    for (BuiltinContribution c : contributions) {
      String type = c.getClass().getName();
      String id = reportedId(c);
      if (id.isEmpty()
          || id.length() > CONTRIBUTION_ID_MAX
          || !CONTRIBUTION_ID.matcher(id).matches()) {
        throw new LoopxException(
            ErrorKind.CONTRIBUTION_FAILED,
            "built-in contribution "
                + type
                + " has an invalid id `"
                + id
                + "`: must be 1..48 characters of lower-kebab-case");
      }
      ProviderId providerId;
      try {
        providerId = Objects.requireNonNull(c.providerId(), "providerId()");
      } catch (RuntimeException | LinkageError | AssertionError e) {
        throw Conflicts.contributionFailed(
            "built-in contribution `"
                + id
                + "` failed to report its provider id: "
                + Conflicts.describe(e),
            e);
      }
      Admitted a = new Admitted(c, id, providerId);
      Admitted sameId = byId.putIfAbsent(id, a);
      if (sameId != null) {
        throw duplicateId(id, sameId.contribution(), c);
      }
      Admitted sameProvider = byProvider.putIfAbsent(providerId, a);
      if (sameProvider != null) {
        throw Conflicts.conflict(
            "duplicate provider `" + providerId + "`",
            "built-in contribution `" + sameProvider.id() + "`",
            "built-in contribution `" + id + "`");
      }
      admitted.add(a);
    }
    return admitted;
  }

  /** Returns the contribution's id, or fails with {@code CONTRIBUTION_FAILED} if it cannot. */
  static String reportedId(BuiltinContribution c) {
    try {
      return Objects.requireNonNull(c.id(), "id()");
    } catch (RuntimeException | LinkageError | AssertionError e) {
      throw Conflicts.contributionFailed(
          "built-in contribution "
              + c.getClass().getName()
              + " failed to report its id: "
              + Conflicts.describe(e),
          e);
    }
  }

  /** Two contributions reporting one id, named by their classes. */
  static LoopxException duplicateId(
      String id, BuiltinContribution earlier, BuiltinContribution later) {
    return Conflicts.conflict(
        "duplicate built-in contribution id `" + id + "`",
        earlier.getClass().getName(),
        later.getClass().getName());
  }
}
