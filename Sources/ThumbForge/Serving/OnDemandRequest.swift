public import Vips

/// One output an on-demand request names, resolved against the plan: what to render (a
/// whole job, for the catalog's own outputs) and the content address of the result.
public struct OnDemandRequest: Sendable {
  /// The asset's qualified name.
  public let asset: String
  let job: Job
  let set: PlannedImageSet
  let output: PlannedOutput
  /// The master the job renders from, decoded whole and kept: set for a job planned for
  /// this request alone whose outputs all come from one raster master, in sRGB. `nil` when
  /// the job renders as `build` renders it (the catalog plan's own jobs, and the others).
  var wholeDecodeMaster: Master? = nil

  /// The content address of the output: the imageset's key (the whole job's plan, tool and
  /// libvips versions, `fail-on`), the output's path and every master's content hash.
  public var cacheKey: String { cacheKey(set: set, output: output) }

  /// The output's encoder.
  public var format: ImageFormat { output.format }

  /// The output's pixel size.
  public var pixelSize: PixelSize { output.pixelSize }

  /// The memory the render adds to the process at its peak, estimated from the plan by the
  /// README's model (``RenderCost/peakBytes(of:)``), for `serve.memory-budget`.
  public var estimatedBytes: Int {
    RenderCost.peakBytes(of: job.imageSets.flatMap { $0.outputs.map(\.cost) })
  }

  /// A measure of the render's work (decoded plus resized pixels), for scheduling.
  public var estimatedCost: Int { BuildEngine.estimatedCost(of: job, sets: job.imageSets) }

  func cacheKey(set: PlannedImageSet, output: PlannedOutput) -> String {
    // A master decoded whole is another method, so another address than the same output
    // rendered as `build` renders it would have.
    var text = set.key + "\n" + output.path + (wholeDecodeMaster != nil ? "\nwhole-decode" : "")
    for master in manifestSources { text += "\n" + master.path + "\t" + master.hash }
    return ContentHash.of(string: text)
  }

  /// The job's masters as the manifest records them.
  var manifestSources: [ManifestSource] { job.source.manifestSources }
}

/// One rendered output with its content address.
public struct RenderedOutput: Sendable {
  public let cacheKey: String
  public let bytes: [UInt8]
  /// SHA-256 of `bytes`, hex (the strong ETag).
  public let hash: String
  public let format: ImageFormat
  public let pixelSize: PixelSize
}
