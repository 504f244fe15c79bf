package io.loopx.api.internal;

import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * The value rules of the manifest contract (docs/contract/manifest.md) that both the manifest
 * records' constructors and the manifest loader apply: one owner per rule and per message. Each
 * rule returns the detail of the first problem, or empty when the value is valid; the caller adds
 * its own key path and error type.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ManifestValues {
  /** The longest {@code presentation_surfaces.id}, in characters. */
  public static final int MAX_SURFACE_ID = 48;

  /** The longest {@code presentation_surfaces.title}, in code points. */
  public static final int MAX_SURFACE_TITLE = 80;

  /** The longest {@code presentation_surfaces.empty_state_title}, in code points. */
  public static final int MAX_EMPTY_STATE_TITLE = 120;

  /** The longest {@code presentation_surfaces.empty_state_detail}, in code points. */
  public static final int MAX_EMPTY_STATE_DETAIL = 240;

  private static final long MAX_SAFE_INTEGER = (1L << 53) - 1;
  private static final Pattern LOWER_KEBAB = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");
  private static final String JAVA_ID = "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*";
  private static final Pattern VIEW_VALIDATOR =
      Pattern.compile(JAVA_ID + "(\\." + JAVA_ID + ")+#" + JAVA_ID);
  private static final Pattern TAG = Pattern.compile("<[^>]*>");
  private static final Pattern DRIVE_PATH = Pattern.compile("[A-Za-z]:[\\\\/]");
  private static final List<String> URL_MARKERS = List.of("http://", "https://", "www.");
  private static final String METADATA_TYPES =
      "extra [[provides]] keys must be strings, integers, booleans, or arrays or tables of"
          + " those; got ";

  private ManifestValues() {}

  /** A problem found inside a metadata value: its key path and what is wrong. */
  public record Problem(String path, String detail) {}

  /** Rejects a UTF-16 surrogate that is not half of a pair (text that is not Unicode). */
  public static Optional<String> loneSurrogate(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < value.length()
          && Character.isLowSurrogate(value.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return Optional.of(
            "contains a lone surrogate U+" + Integer.toHexString(c).toUpperCase(Locale.ROOT));
      }
    }
    return Optional.empty();
  }

  /**
   * Returns whether {@code codePoint} is refused in manifest text and escaped in terminal output: a
   * C0 or C1 control character (U+0000–U+001F, U+007F–U+009F), the line and paragraph separators
   * U+2028 and U+2029, or a bidirectional control (U+202A–U+202E, U+2066–U+2069).
   */
  public static boolean isUnsafeCharacter(int codePoint) {
    return codePoint <= 0x1F
        || (codePoint >= 0x7F && codePoint <= 0x9F)
        || codePoint == 0x2028
        || codePoint == 0x2029
        || (codePoint >= 0x202A && codePoint <= 0x202E)
        || (codePoint >= 0x2066 && codePoint <= 0x2069);
  }

  /**
   * The rule of manifest text (every string but {@code runtime.entrypoint}, {@code runtime.args}
   * and {@code runtime.doctor_args}): no {@linkplain #isUnsafeCharacter unsafe character}. The
   * detail names the first one as {@code U+XXXX}, never the character itself.
   */
  public static Optional<String> unsafeCharacter(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (isUnsafeCharacter(c)) {
        String what;
        if (c == 0x2028 || c == 0x2029) {
          what = "a line or paragraph separator";
        } else if (c >= 0x202A) {
          what = "a bidirectional control character";
        } else {
          what = "a control character";
        }
        return Optional.of("contains " + what + " " + codePoint(c));
      }
    }
    return Optional.empty();
  }

  /**
   * Returns {@code value} with every {@linkplain #isUnsafeCharacter unsafe character} written as
   * <code>&#92;uXXXX</code> (upper-case hex), so a message quoting input cannot drive a terminal.
   */
  public static String escaped(String value) {
    StringBuilder out = null;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (isUnsafeCharacter(c)) {
        if (out == null) {
          out = new StringBuilder(value.length() + 8).append(value, 0, i);
        }
        out.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? value : out.toString();
  }

  private static String codePoint(char c) {
    return String.format(Locale.ROOT, "U+%04X", (int) c);
  }

  /**
   * The plain-text rule of the surface texts: at most {@code max} code points, a single line, no
   * URL, no markup tag, no path-like token.
   */
  public static Optional<String> plainText(String value, int max) {
    int length = value.codePointCount(0, value.length());
    if (length > max) {
      return Optional.of("must be at most " + max + " characters, got " + length);
    }
    if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
      return Optional.of("must be a single line of plain text (no line breaks)");
    }
    String lower = value.toLowerCase(Locale.ROOT);
    for (String marker : URL_MARKERS) {
      if (lower.contains(marker)) {
        return Optional.of("must be plain text without URLs (found `" + marker + "`)");
      }
    }
    if (TAG.matcher(value).find()) {
      return Optional.of("must be plain text without markup tags (`<…>`)");
    }
    for (String token : value.split("\\s+", -1)) {
      String t = stripLeadingOpeners(token);
      if (t.startsWith("/") || t.startsWith("~/") || DRIVE_PATH.matcher(t).lookingAt()) {
        return Optional.of("must be plain text without file paths (found `" + shown(token) + "`)");
      }
    }
    return Optional.empty();
  }

  /** The rule of a launch argument or entrypoint: no NUL character. */
  public static Optional<String> noNul(String value) {
    return value.indexOf('\0') >= 0 ? Optional.of("must not contain NUL") : Optional.empty();
  }

  /** The longest {@code java_class_path} entry, in characters (code points). */
  public static final int MAX_CLASS_PATH_ENTRY_LENGTH = 1024;

  /**
   * The rule of one {@code java_class_path} entry (already trimmed, non-empty manifest text): at
   * most {@value #MAX_CLASS_PATH_ENTRY_LENGTH} characters, relative (not starting with {@code /}),
   * without {@code :} (the class path separator, which would split it) and without {@code *} (the
   * JVM expands {@code dir/*} to the jars of a directory, which would not be identified).
   */
  public static Optional<String> classPathEntry(String value) {
    int length = value.codePointCount(0, value.length());
    if (length > MAX_CLASS_PATH_ENTRY_LENGTH) {
      return Optional.of(
          "must be at most " + MAX_CLASS_PATH_ENTRY_LENGTH + " characters, got " + length);
    }
    if (value.startsWith("/")) {
      return Optional.of("must be a path relative to the manifest's directory");
    }
    if (value.indexOf(':') >= 0) {
      return Optional.of("must not contain `:` (the class path separator)");
    }
    if (value.indexOf('*') >= 0) {
      return Optional.of("must not contain `*` (the JVM would expand it)");
    }
    return Optional.empty();
  }

  /** The rule that the runtime requires only declared permissions. */
  public static Optional<String> undeclaredPermissions(
      List<Permission> required, List<Permission> declared) {
    List<Permission> undeclared = required.stream().filter(p -> !declared.contains(p)).toList();
    return undeclared.isEmpty()
        ? Optional.empty()
        : Optional.of("runtime requires undeclared permissions " + undeclared);
  }

  /** The rule that an {@code [[implements]]} protocol equals the runtime protocol. */
  public static Optional<String> implementsProtocol(ProtocolId protocol, ProtocolId runtime) {
    return protocol.equals(runtime)
        ? Optional.empty()
        : Optional.of("`" + protocol + "` must equal the runtime protocol `" + runtime + "`");
  }

  /** The detail of a manifest that declares none of runtime, provides and implements. */
  public static final String DECLARES_NOTHING =
      "declares nothing: a manifest needs at least one of [runtime], [[provides]] or"
          + " [[implements]]";

  /** The {@code presentation_surfaces.id} rule: 1..48 characters of lower-kebab-case. */
  public static Optional<String> surfaceId(String id) {
    if (id.length() > MAX_SURFACE_ID || !LOWER_KEBAB.matcher(id).matches()) {
      return Optional.of(
          "`" + shown(id) + "` must be 1.." + MAX_SURFACE_ID + " characters of lower-kebab-case");
    }
    return Optional.empty();
  }

  /** The longest access root name ({@code runtime.access}), in characters. */
  public static final int MAX_ACCESS_ROOT = 32;

  /** The most entries of {@code runtime.access}. */
  public static final int MAX_ACCESS_ENTRIES = 16;

  /** The access word that grants the network ({@code runtime.access}). */
  public static final String ACCESS_NETWORK = "network";

  /** The prefix of an access word that grants reading a root ({@code read:<root>}). */
  public static final String ACCESS_READ = "read:";

  /** The prefix of an access word that grants writing (and reading) a root. */
  public static final String ACCESS_WRITE = "write:";

  /**
   * The access root rule (a {@code runtime.access} root and a host's {@code accessRoot} name): 1..
   * {@value #MAX_ACCESS_ROOT} characters of lower-kebab-case.
   */
  public static Optional<String> accessRoot(String root) {
    if (root.isEmpty() || root.length() > MAX_ACCESS_ROOT || !LOWER_KEBAB.matcher(root).matches()) {
      return Optional.of(
          "access root `"
              + shown(root)
              + "` must be 1.."
              + MAX_ACCESS_ROOT
              + " characters of lower-kebab-case ([a-z][a-z0-9]*(-[a-z0-9]+)*)");
    }
    return Optional.empty();
  }

  /**
   * The rule of one {@code runtime.access} word: {@code network}, {@code read:<root>} or {@code
   * write:<root>}, the root passing {@link #accessRoot}.
   */
  public static Optional<String> accessWord(String word) {
    if (word.equals(ACCESS_NETWORK)) {
      return Optional.empty();
    }
    if (word.startsWith(ACCESS_READ)) {
      return accessRoot(word.substring(ACCESS_READ.length()));
    }
    if (word.startsWith(ACCESS_WRITE)) {
      return accessRoot(word.substring(ACCESS_WRITE.length()));
    }
    return Optional.of(
        "must be `network`, `read:<root>` or `write:<root>`, got `" + shown(word) + "`");
  }

  /** The detail of a root declared with both {@code read:} and {@code write:}. */
  public static String accessReadAndWrite(String root) {
    return "declares both `read:"
        + shown(root)
        + "` and `write:"
        + shown(root)
        + "`; write implies read, declare only `write:"
        + shown(root)
        + "`";
  }

  /** The detail of a standalone extension that declares access. */
  public static final String STANDALONE_ACCESS =
      "a standalone extension (no [[provides]] or [[implements]]) may declare no access:"
          + " `extension run` grants none";

  /** The {@code view_validator} rule: {@code fully.qualified.Class#method}. */
  public static Optional<String> viewValidator(String validator) {
    if (!VIEW_VALIDATOR.matcher(validator).matches()) {
      return Optional.of(
          "`" + shown(validator) + "` must have the form fully.qualified.Class#method");
    }
    return Optional.empty();
  }

  /**
   * The rule of one extra {@code [[provides]]} key and its value, visited depth first in order:
   * keys are Unicode; values are strings (Unicode, and trimmed when {@code trimmed}), booleans,
   * integers within ±(2^53 - 1), or arrays or tables of those.
   *
   * @param path the key path of the table that holds the key
   * @param describe names the type of a rejected value ("a float", "null", ...)
   * @param trimmed whether a string must already be trimmed (a reader trims instead)
   */
  public static Optional<Problem> metadataEntry(
      String path,
      String key,
      JsonNode value,
      Function<JsonNode, String> describe,
      boolean trimmed) {
    String keyPath = path.isEmpty() ? key : path + "." + key;
    Optional<String> surrogate = loneSurrogate(key).or(() -> unsafeCharacter(key));
    if (surrogate.isPresent()) {
      return Optional.of(new Problem(keyPath, surrogate.get()));
    }
    return metadataValue(keyPath, value, describe, trimmed);
  }

  private static Optional<Problem> metadataValue(
      String path, JsonNode value, Function<JsonNode, String> describe, boolean trimmed) {
    if (value.isString()) {
      String text = value.stringValue();
      Optional<String> surrogate = loneSurrogate(text).or(() -> unsafeCharacter(text.strip()));
      if (surrogate.isPresent()) {
        return Optional.of(new Problem(path, surrogate.get()));
      }
      return trimmed && !text.strip().equals(text)
          ? Optional.of(new Problem(path, "must be a trimmed string"))
          : Optional.empty();
    }
    if (value.isBoolean()) {
      return Optional.empty();
    }
    if (value.isIntegralNumber()) {
      if (!value.canConvertToLong()
          || value.longValue() > MAX_SAFE_INTEGER
          || value.longValue() < -MAX_SAFE_INTEGER) {
        return Optional.of(
            new Problem(
                path,
                "integer "
                    + value.bigIntegerValue()
                    + " is outside the interoperable range ±(2^53 - 1)"));
      }
      return Optional.empty();
    }
    if (value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        Optional<Problem> p = metadataValue(path + "[" + i + "]", value.get(i), describe, trimmed);
        if (p.isPresent()) {
          return p;
        }
      }
      return Optional.empty();
    }
    if (value.isObject()) {
      for (Map.Entry<String, JsonNode> e : value.properties()) {
        Optional<Problem> p = metadataEntry(path, e.getKey(), e.getValue(), describe, trimmed);
        if (p.isPresent()) {
          return p;
        }
      }
      return Optional.empty();
    }
    return Optional.of(new Problem(path, METADATA_TYPES + describe.apply(value)));
  }

  /**
   * Names the JSON type of {@code node} for a message, with the given words for an object, a
   * non-integral number and a non-JSON value (TOML says "table", "float" and "datetime").
   */
  public static String describe(
      JsonNode node, String objectWord, String numberWord, String otherWord) {
    if (node.isString()) {
      return "a string";
    }
    if (node.isBoolean()) {
      return "a boolean";
    }
    if (node.isIntegralNumber()) {
      return "an integer";
    }
    if (node.isNumber()) {
      return numberWord;
    }
    if (node.isArray()) {
      return "an array";
    }
    if (node.isObject()) {
      return "a " + objectWord;
    }
    if (node.isNull()) {
      return "null";
    }
    if (node.isPojo()) {
      return otherWord;
    }
    return node.getNodeType().toString().toLowerCase(Locale.ROOT);
  }

  /**
   * Shortens a value for a message: at most 80 characters, then an ellipsis, with every {@linkplain
   * #isUnsafeCharacter unsafe character} {@linkplain #escaped escaped}.
   */
  public static String shown(String value) {
    return escaped(value.length() <= 80 ? value : value.substring(0, 80) + "…");
  }

  private static String stripLeadingOpeners(String token) {
    int i = 0;
    while (i < token.length() && "\"'([{".indexOf(token.charAt(i)) >= 0) {
      i++;
    }
    return token.substring(i);
  }
}
