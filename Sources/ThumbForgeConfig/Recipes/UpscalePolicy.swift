/// What a boxed recipe does when its master is smaller than the output.
package enum UpscalePolicy: String, Sendable, Codable, CaseIterable, Hashable {
  /// Render anyway and report the factor.
  case warn
  /// Leave the slot empty and report it.
  case never
  /// Render silently.
  case allow
  /// Never enlarge: an output the master is too small for keeps the master's resolution
  /// (`fit`: the master's size; `fill`, `flag`, `tile`: the largest centred crop of the
  /// box's aspect the master holds), as sharp's `withoutEnlargement` and vipsthumbnail's `>`.
  case keep
}
