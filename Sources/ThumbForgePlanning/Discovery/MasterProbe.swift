internal import Foundation
internal import ThumbForgeBasics
internal import Vips

/// Reads headers (no pixels) and hashes of masters, reusing earlier results for files whose
/// size and modification time did not change.
enum MasterProbe {
  /// The colour error (ΔE 1976) clipping to sRGB must cause for a master to count as wide
  /// gamut: sRGB profiles stay under 3 (rounding), Display P3 reaches 35 (see
  /// ``Vips/VipsImage/gamutBeyondSRGB()``).
  static let wideGamutThreshold = 10.0

  /// Probes one file; throws a ``Problem`` with a plain-words reason.
  static func probe(
    file: ScannedFile, folder: URL, limitInputPixels: Int, cached: ProbeResult?
  ) -> Result<ProbeResult, Problem> {
    if let reused = reuse(cached, file: file, limitInputPixels: limitInputPixels) {
      return reused
    }
    let path = folder.filePath(file.relativePath)
    if file.byteSize == 0 {
      return .failure(
        Problem(path: file.relativePath, reason: "empty file (0 bytes)", kind: .undecodable))
    }
    let hash: String
    do {
      hash = try ContentHash.ofFile(at: path)
    } catch {
      return .failure(
        Problem(path: file.relativePath, reason: "cannot read the file (permission denied)"))
    }
    let image: VipsImage
    do {
      image = try VipsImage.load(path: path)
    } catch {
      return .failure(
        Problem(
          path: file.relativePath,
          reason: ErrorWording.describe(error, file: path, byteSize: file.byteSize),
          kind: .undecodable))
    }
    let rotated = image.orientation >= 5
    let plain =
      image.interpretation == .srgb && image.format == .uchar && image.orientation == 1
      && !image.hasICCProfile
    let result = ProbeResult(
      byteSize: file.byteSize, modified: file.modified, hash: hash,
      width: rotated ? image.height : image.width, height: rotated ? image.width : image.height,
      hasAlpha: image.hasAlpha,
      isPlainSRGB: plain && (!image.hasMetadata || containerSheds(path: path)),
      isWideGamut: image.gamutBeyondSRGB() > wideGamutThreshold,
      hasMetadata: image.hasMetadata, frames: max(1, image.pageCount))
    return check(result, file: file, limit: limitInputPixels)
  }

  /// Whether the file's container can lose its metadata without re-encoding (a JPEG's or a
  /// PNG's segments or chunks: ``JPEGMetadata``, ``PNGMetadata``).
  static func containerSheds(path: String) -> Bool {
    guard let data = FileManager.default.contents(atPath: path) else { return false }
    return ContainerMetadata.stripped(Array(data)) != nil
  }

  /// The outcome from an earlier result alone, without touching the file; nil when there is
  /// none or the file's size or modification time changed since.
  static func reuse(_ cached: ProbeResult?, file: ScannedFile, limitInputPixels: Int)
    -> Result<ProbeResult, Problem>?
  {
    guard let cached, cached.describes(file) else { return nil }
    return check(cached, file: file, limit: limitInputPixels)
  }

  private static func check(_ result: ProbeResult, file: ScannedFile, limit: Int) -> Result<
    ProbeResult, Problem
  > {
    let pixels = result.width * result.height
    if pixels > limit {
      let megapixels = Double(pixels) / 1_000_000
      return .failure(
        Problem(
          path: file.relativePath,
          reason:
            "image is \(result.width)x\(result.height) (\(Int(megapixels.rounded())) MP), over the limit of \(limit) pixels (limit-input-pixels)",
          kind: .tooLarge))
    }
    return .success(result)
  }
}
