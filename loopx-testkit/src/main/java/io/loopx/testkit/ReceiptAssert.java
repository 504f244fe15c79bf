package io.loopx.testkit;

import io.loopx.runtime.Receipt;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.run.RunReceipt;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * AssertJ assertions over a {@link Receipt} and its JSON form ({@link Receipt#toJson()}), the form
 * hosts and the CLI see.
 *
 * <pre>{@code
 * assertThatReceipt(receipt)
 *     .isOk()
 *     .hasSchemaVersion("loopx_extension_operation_v0")
 *     .hasAllDocumentedKeys()
 *     .hasValue("doctor.status", "ready")
 *     .hasNullValue("previous_revision");
 * assertThatReceipt(receipt).doctor().hasStatus(DoctorStatus.READY).isVerified();
 * assertThatReceipt(receipt).lifecycle().isExecuted().isChanged().hasNoPreviousRevision();
 * }</pre>
 *
 * <p>The typed views {@link #doctor()}, {@link #lifecycle()} and {@link #run()} check each value
 * both in the receipt's accessor and in its JSON.
 *
 * <p>Keys are paths: {@code doctor.status} descends into an object, {@code extensions[0].status}
 * into an array element. {@link #hasAllDocumentedKeys()} checks the key lists of {@link
 * DocumentedKeys} (docs/contract/lifecycle.md, doctor.md, run.md, dispatch.md), also inside nested
 * doctor packets and list rows.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class ReceiptAssert extends AbstractAssert<ReceiptAssert, Receipt> {
  private static final String CONTAINMENT = "containment";
  private static final String ISOLATION = "isolation";

  private static final Pattern SEGMENT = Pattern.compile("([^.\\[\\]]+)((?:\\[\\d+])*)");
  private static final Pattern INDEX = Pattern.compile("\\[(\\d+)]");

  private final ObjectNode json;

  private ReceiptAssert(Receipt actual) {
    super(actual, ReceiptAssert.class);
    this.json = actual.toJson();
  }

  /** Starts assertions on {@code receipt}. */
  public static ReceiptAssert assertThatReceipt(Receipt receipt) {
    return new ReceiptAssert(receipt);
  }

  /** Returns the receipt's JSON, for assertions this class does not offer. */
  public ObjectNode json() {
    return json.deepCopy();
  }

  /**
   * Returns typed assertions on a doctor packet: the receipt itself when it is a {@link
   * DoctorReceipt}, else the packet nested in an install, upgrade, rollback or enable receipt.
   * Fails for any other receipt.
   */
  public DoctorReceiptAssert doctor() {
    isNotNull();
    Optional<DoctorReceipt> doctor = Optional.empty();
    if (actual instanceof DoctorReceipt d) {
      doctor = Optional.of(d);
    } else if (actual instanceof LifecycleReceipt l) {
      doctor = l.doctor();
    }
    if (doctor.isEmpty()) {
      failWithMessage(
          "Expected a doctor packet or a receipt holding one but was %s:%n  %s",
          actual.getClass().getSimpleName(), json);
    }
    return new DoctorReceiptAssert(doctor.orElseThrow());
  }

  /**
   * Returns typed assertions on an install, upgrade, enable, disable, rollback or uninstall
   * receipt; fails for any other receipt.
   */
  public LifecycleReceiptAssert lifecycle() {
    return new LifecycleReceiptAssert(as(LifecycleReceipt.class));
  }

  /** Returns typed assertions on a run receipt; fails for any other receipt. */
  public RunReceiptAssert run() {
    return new RunReceiptAssert(as(RunReceipt.class));
  }

  private <R extends Receipt> R as(Class<R> type) {
    isNotNull();
    if (!type.isInstance(actual)) {
      failWithMessage(
          "Expected a %s but was %s:%n  %s",
          type.getSimpleName(), actual.getClass().getSimpleName(), json);
    }
    return type.cast(actual);
  }

  /** Verifies that {@link Receipt#ok()} is true and so is the JSON key {@code ok}. */
  public ReceiptAssert isOk() {
    isNotNull();
    if (!actual.ok() || !json.path("ok").isBoolean() || !json.path("ok").booleanValue()) {
      failWithMessage(
          "Expected an ok receipt but ok() was %s and the JSON says ok=%s in%n  %s",
          actual.ok(), json.get("ok"), json);
    }
    return this;
  }

  /** Verifies that {@link Receipt#ok()} is false and so is the JSON key {@code ok}. */
  public ReceiptAssert isNotOk() {
    isNotNull();
    if (actual.ok() || !json.path("ok").isBoolean() || json.path("ok").booleanValue()) {
      failWithMessage(
          "Expected a receipt that is not ok but ok() was %s and the JSON says ok=%s in%n  %s",
          actual.ok(), json.get("ok"), json);
    }
    return this;
  }

  /** Verifies the schema version, both {@link Receipt#schemaVersion()} and the JSON key. */
  public ReceiptAssert hasSchemaVersion(String expected) {
    isNotNull();
    JsonNode wire = json.get("schema_version");
    if (!expected.equals(actual.schemaVersion())
        || wire == null
        || !wire.isString()
        || !expected.equals(wire.asString())) {
      failWithMessage(
          "Expected schema_version <%s> but schemaVersion() was <%s> and the JSON holds %s",
          expected, actual.schemaVersion(), wire);
    }
    return this;
  }

  /** Verifies that the key path {@code path} is present (its value may be {@code null}). */
  public ReceiptAssert hasKey(String path) {
    isNotNull();
    if (find(path).isEmpty()) {
      failWithMessage(
          "Expected the receipt to have the key <%s> but it does not:%n  %s", path, json);
    }
    return this;
  }

  /** Verifies that the key path {@code path} is absent. */
  public ReceiptAssert doesNotHaveKey(String path) {
    isNotNull();
    if (find(path).isPresent()) {
      failWithMessage(
          "Expected the receipt not to have the key <%s> but it does:%n  %s", path, json);
    }
    return this;
  }

  /** Verifies that {@code path} is present and JSON {@code null}. */
  public ReceiptAssert hasNullValue(String path) {
    return hasValue(path, null);
  }

  /**
   * Verifies that {@code path} is present with the value {@code expected}: a {@link String} matches
   * a JSON string, a {@link Boolean} a JSON boolean, a {@link Number} a JSON number of equal value,
   * {@code null} a JSON {@code null}; anything else is compared with its {@code toString()} against
   * a JSON string (ids, revisions, enums' wire names).
   */
  public ReceiptAssert hasValue(String path, @Nullable Object expected) {
    hasKey(path);
    JsonNode value = find(path).orElseThrow();
    if (!WireCheck.matches(value, expected)) {
      failWithMessage(
          "Expected <%s> to be <%s> but was <%s> in%n  %s", path, expected, value, json);
    }
    return this;
  }

  /**
   * Verifies that every key docs/contract documents for this receipt is present (with {@code null}
   * where it does not apply), also in nested doctor packets, batch packets and list rows. Extra
   * keys are allowed; see {@link #hasOnlyDocumentedKeys()}.
   */
  public ReceiptAssert hasAllDocumentedKeys() {
    isNotNull();
    List<String> missing = new ArrayList<>();
    check(json, "", missing, false);
    if (!missing.isEmpty()) {
      failWithMessage(
          "Expected every documented key but these are missing: %s in%n  %s", missing, json);
    }
    return this;
  }

  /**
   * Verifies that the receipt has exactly the documented keys, nested objects included; a doctor
   * packet, run or dispatch receipt may also hold {@code isolation}, which is written only when the
   * provider's isolation policy is not off (docs/contract/run.md, doctor.md).
   */
  public ReceiptAssert hasOnlyDocumentedKeys() {
    isNotNull();
    List<String> problems = new ArrayList<>();
    check(json, "", problems, true);
    if (!problems.isEmpty()) {
      failWithMessage(
          "Expected exactly the documented keys but found these differences: %s in%n  %s",
          problems, json);
    }
    return this;
  }

  private void check(JsonNode node, String at, List<String> problems, boolean exact) {
    Optional<List<String>> keys = DocumentedKeys.ofReceipt(node);
    if (keys.isEmpty()) {
      problems.add(
          (at.isEmpty() ? "" : at + ": ")
              + "no documented keys for schema_version "
              + node.get("schema_version")
              + " / operation "
              + node.get("operation"));
      return;
    }
    compare(node, at, keys.get(), problems, exact);
    String schema = node.path("schema_version").asString("");
    JsonNode doctor = node.get("doctor");
    if (doctor != null && doctor.isObject()) {
      check(doctor, child(at, "doctor"), problems, exact);
    }
    JsonNode rows = node.get("extensions");
    if (rows != null && rows.isArray()) {
      for (int i = 0; i < rows.size(); i++) {
        String rowAt = child(at, "extensions") + "[" + i + "]";
        if (schema.equals("loopx_extension_state_v0")) {
          compare(rows.get(i), rowAt, DocumentedKeys.LIST_ROW, problems, exact);
        } else {
          check(rows.get(i), rowAt, problems, exact);
        }
      }
    }
  }

  private static void compare(
      JsonNode node, String at, List<String> keys, List<String> problems, boolean exact) {
    for (String key : keys) {
      if (!node.has(key)) {
        problems.add(child(at, key));
      }
    }
    if (exact) {
      Set<String> extra = new TreeSet<>(node.propertyNames());
      extra.removeAll(new LinkedHashSet<>(keys));
      if (keys.contains(CONTAINMENT)) {
        // Beside containment, doctor packets and run and dispatch receipts say what isolated the
        // provider, when its isolation policy was not off (a default host's standalone extensions).
        extra.remove(ISOLATION);
      }
      extra.forEach(k -> problems.add("unexpected " + child(at, k)));
    }
  }

  private static String child(String at, String key) {
    return at.isEmpty() ? key : at + "." + key;
  }

  private Optional<JsonNode> find(String path) {
    JsonNode node = json;
    for (String part : path.split("\\.", -1)) {
      Matcher m = SEGMENT.matcher(part);
      if (!m.matches()) {
        throw new IllegalArgumentException("bad key path `" + path + "`");
      }
      if (!node.isObject() || !node.has(m.group(1))) {
        return Optional.empty();
      }
      node = node.get(m.group(1));
      Matcher index = INDEX.matcher(m.group(2));
      while (index.find()) {
        int i = Integer.parseInt(index.group(1));
        if (!node.isArray() || i >= node.size()) {
          return Optional.empty();
        }
        node = node.get(i);
      }
    }
    return Optional.of(node);
  }
}
