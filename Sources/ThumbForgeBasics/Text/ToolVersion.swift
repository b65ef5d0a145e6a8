/// The version of ThumbForge recorded in manifests; a change re-renders everything.
package enum ToolVersion {
  package static let current = "0.4.0"
}
