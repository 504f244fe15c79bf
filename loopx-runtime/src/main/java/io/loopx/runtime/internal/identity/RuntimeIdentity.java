package io.loopx.runtime.internal.identity;

import io.loopx.api.InvalidValueException;
import io.loopx.api.json.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The identity of a resolved extension runtime: 64 lowercase hex characters, the SHA-256 of the RFC
 * 8785 canonical JSON of one identity record. A doctor proof binds a revision to these identities
 * (the state's {@code doctor_verified_identities}); any change to what the record covers gives a
 * different identity and so makes an old proof stale. Paths never appear in a record: identities
 * are content-addressed. The records (an executable with or without {@code #!}, a Java main class
 * in a jar or class directory, a Java main class with its own class path) are pinned in
 * docs/contract/doctor.md#runtime-identity. Immutable value.
 *
 * @param value 64 lowercase hex characters
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record RuntimeIdentity(String value) implements Comparable<RuntimeIdentity> {
  /** The {@code schema_version} of identity records. */
  public static final String SCHEMA_VERSION = "loopx_runtime_identity_v1";

  /** The {@code schema_version} of the class directory record. */
  public static final String CLASS_DIRECTORY_SCHEMA_VERSION =
      "loopx_runtime_class_directory_identity_v1";

  /** Validates {@code value}; throws {@link InvalidValueException} naming it when invalid. */
  public RuntimeIdentity {
    Objects.requireNonNull(value, "value");
    if (!FileIdentity.isHex64(value)) {
      throw new InvalidValueException(
          "runtime identity", value, "must be 64 lowercase hex characters");
    }
  }

  /** Returns the identity {@code value}, or throws {@link InvalidValueException} naming it. */
  public static RuntimeIdentity of(String value) {
    return new RuntimeIdentity(value);
  }

  @Override
  public int compareTo(RuntimeIdentity other) {
    return value.compareTo(other.value);
  }

  /** Returns the hex text itself. */
  @Override
  public String toString() {
    return value;
  }

  /**
   * Returns the record of a launcher that starts with {@code #!}; a launcher without one is
   * identified by its {@link FileIdentity#toJson() file identity record} instead.
   */
  static ObjectNode executableRecord(String launcherDigest, String interpreterDigest) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("schema_version", SCHEMA_VERSION);
    node.put("kind", "executable");
    node.put("launcher", launcherDigest);
    node.put("interpreter", interpreterDigest);
    return node;
  }

  static ObjectNode javaMainRecord(
      String javaDigest, String className, String codeSourceKind, String codeSource) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("schema_version", SCHEMA_VERSION);
    node.put("kind", "java_main");
    node.put("java", javaDigest);
    node.put("class_name", className);
    node.put("code_source_kind", codeSourceKind);
    node.put("code_source", codeSource);
    return node;
  }

  /** Returns one {@code class_path} element: a code source's kind and identity. */
  static ObjectNode codeSource(String kind, String identity) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("kind", kind);
    node.put("code_source", identity);
    return node;
  }

  static ObjectNode javaClassPathRecord(
      String javaDigest, String className, List<ObjectNode> classPath) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("schema_version", SCHEMA_VERSION);
    node.put("kind", "java_class_path");
    node.put("java", javaDigest);
    node.put("class_name", className);
    ArrayNode entries = node.putArray("class_path");
    classPath.forEach(entries::add);
    return node;
  }

  static RuntimeIdentity ofRecord(ObjectNode record) {
    return recorded(record).identity();
  }

  /** The most identities {@link #recorded} keeps by their record's canonical text. */
  private static final int MAX_KNOWN = 1024;

  /** Identities by their record's canonical text: the identity is a pure function of that text. */
  private static final ConcurrentHashMap<String, RuntimeIdentity> KNOWN = new ConcurrentHashMap<>();

  /** A record's identity and its canonical text (what a resolution keeps). */
  record Recorded(RuntimeIdentity identity, String text) {}

  /**
   * Returns the identity of {@code record} and its canonical text from one canonical walk: the
   * SHA-256 is taken over the text's UTF-8 bytes (exactly the canonical bytes), and only when this
   * text was not seen before (a warm request resolves the same runtime several times).
   */
  static Recorded recorded(ObjectNode record) {
    String text = CanonicalJson.toText(record);
    RuntimeIdentity known = KNOWN.get(text);
    if (known == null) {
      known = new RuntimeIdentity(sha256Hex(text));
      if (KNOWN.size() >= MAX_KNOWN) {
        KNOWN.clear();
      }
      KNOWN.put(text, known);
    }
    return new Recorded(known, text);
  }

  /** Records by a key that determines them (their components joined), kept like {@link #KNOWN}. */
  private static final ConcurrentHashMap<String, Recorded> BY_KEY = new ConcurrentHashMap<>();

  /**
   * As {@link #recorded(ObjectNode)} for the record {@code record} builds, which {@code key}
   * determines (the record's kind and components, joined with a separator no component holds): a
   * key seen before returns its identity and text without building or walking the record.
   */
  static Recorded recorded(String key, Supplier<ObjectNode> record) {
    Recorded known = BY_KEY.get(key);
    if (known == null) {
      known = recorded(record.get());
      if (BY_KEY.size() >= MAX_KNOWN) {
        BY_KEY.clear();
      }
      BY_KEY.put(key, known);
    }
    return known;
  }

  private static String sha256Hex(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required on every Java platform", e);
    }
  }
}
