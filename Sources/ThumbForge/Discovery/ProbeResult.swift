internal import Vips

/// What probing a file found: its header facts and hash.
struct ProbeResult: Hashable, Sendable, Codable {
  var byteSize: Int
  var modified: Int64
  var hash: String
  var width: Int
  var height: Int
  var hasAlpha: Bool
  var isPlainSRGB: Bool
  /// The embedded profile reaches beyond sRGB by more than ``MasterProbe/wideGamutThreshold``.
  var isWideGamut = false
}
