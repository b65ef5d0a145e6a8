/// The version of ThumbForge recorded in manifests; a change re-renders everything.
public enum ToolVersion {
  public static let current = "0.4.0"
}
