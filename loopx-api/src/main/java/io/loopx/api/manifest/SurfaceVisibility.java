package io.loopx.api.manifest;

import org.apiguardian.api.API;

/** Who may see a presentation surface. */
@API(status = API.Status.STABLE, since = "1.0")
public enum SurfaceVisibility {
  /** Safe to show to anyone who can see the host's public output. */
  PUBLIC_SAFE("public-safe"),
  /** Only for the owner of the runtime. */
  OWNER_ONLY("owner-only");

  private final String wireName;

  SurfaceVisibility(String wireName) {
    this.wireName = wireName;
  }

  /** Returns the wire name, {@code public-safe} or {@code owner-only}. */
  public String wireName() {
    return wireName;
  }
}
