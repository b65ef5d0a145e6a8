package import ThumbForgePlanning

/// One encoded output, ready to be written.
package struct RenderedFile: Sendable {
  package var output: PlannedOutput
  package var bytes: [UInt8]
  package var hash: String
  /// The imageset's ThumbHash, when the plan made this file its placeholder's source.
  package var placeholder: [UInt8]? = nil
  /// The files of the destinations beside the catalog made from this file (its output's
  /// ``PlannedOutput/derived``).
  package var derived: [RenderedDerivedFile] = []
}
