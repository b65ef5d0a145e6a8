package import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgePlanning
package import Vips

/// One output an on-demand request names, resolved against the plan: what to render (a
/// whole job, for the catalog's own outputs) and the content address of the result.
package struct OnDemandRequest: Sendable {
  /// The asset's qualified name.
  package let asset: String
  let job: Job
  let set: PlannedImageSet
  let output: PlannedOutput
  /// The content address of the output: the imageset's key (the whole job's plan, tool and
  /// libvips versions, `fail-on`), the output's path and every master's content hash.
  /// Computed once, when the request is resolved.
  package let cacheKey: String

  init(asset: String, job: Job, set: PlannedImageSet, output: PlannedOutput) {
    self.asset = asset
    self.job = job
    self.set = set
    self.output = output
    cacheKey = Self.cacheKey(set: set, output: output, sources: job.source.manifestSources)
  }

  /// The output's encoder.
  package var format: ImageFormat { output.format }

  /// The output's pixel size.
  package var pixelSize: PixelSize { output.pixelSize }

  /// The memory the render adds to the process at its peak, estimated from the plan by the
  /// README's model (``RenderCost/peakBytes(of:)``), for `serve.memory-budget`.
  package var estimatedBytes: Int {
    RenderCost.peakBytes(of: job.imageSets.flatMap { $0.outputs.map(\.cost) })
  }

  /// A measure of the render's work (decoded plus resized pixels), for scheduling.
  package var estimatedCost: Int { BuildEngine.estimatedCost(of: job, sets: job.imageSets) }

  /// The content address of one output of the request's job (its siblings are cached too).
  func cacheKey(set: PlannedImageSet, output: PlannedOutput) -> String {
    output == self.output && set.key == self.set.key
      ? cacheKey
      : Self.cacheKey(set: set, output: output, sources: manifestSources)
  }

  private static func cacheKey(
    set: PlannedImageSet, output: PlannedOutput, sources: [ManifestSource]
  ) -> String {
    var text = set.key + "\n" + output.path
    for master in sources { text += "\n" + master.path + "\t" + master.hash }
    return ContentHash.of(string: text)
  }

  /// The job's masters as the manifest records them.
  var manifestSources: [ManifestSource] { job.source.manifestSources }
}

/// One rendered output with its content address.
package struct RenderedOutput: Sendable {
  package let cacheKey: String
  package let bytes: [UInt8]
  /// SHA-256 of `bytes`, hex (the strong ETag).
  package let hash: String
  package let format: ImageFormat
  package let pixelSize: PixelSize
}
