package import ThumbForgeConfig

extension ManifestOutput {
  /// The slot the output's file fills, read back from its `scale`, `appearance` and
  /// `displayGamut` as ``Slot`` writes them; nil when a string is not one ThumbForge writes.
  package var slot: Slot? {
    Slot(scale: scale, manifestAppearance: appearance, manifestGamut: displayGamut)
  }
}
