import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge

/// Differential fidelity: generated masters (format × bit depth × bands × ICC profile × EXIF
/// orientation × interlacing × recipe, chosen from a fixed seed so that every value of every
/// dimension appears) go through the real pipeline at 1x/2x/3x, each with its recipe
/// (`variants`, `fit`, a padded `fit`, `fill` at a corner gravity and at `attention`, `flag`,
/// `tile`), and each output is compared with ``FidelityReference``, computed here from
/// libvips primitives. An output that misses it passes only by a measured explanation
/// printed with it (``explained(_:jpeg:expected:reference:made:)``); a product issue proven
/// by a measure is recorded as a known issue (``knownIssue``).
///
/// `THUMBFORGE_FIDELITY_CASES=<n>` runs `n` cases (default 40; never fewer than cover every
/// value). `THUMBFORGE_FIDELITY_BREAK=<break>` (``FidelityBreak``: `ignore-profile`,
/// `no-rotation`, `no-rounded-mask`, `wrong-gravity`) makes the reference wrong on purpose,
/// to see the test fail.
@Suite("Differential fidelity against a libvips reference")
struct FidelityDifferentialTests {
  static let seed: UInt64 = 0x7F1D_E11E
  static let defaultCount = 40
  /// Largest allowed alpha difference of any pixel (0–255).
  static let alphaTolerance = 2
  /// Largest allowed mean colour difference per band value (0–255).
  static let colourTolerance = 1.5
  /// The quality of every recipe's JPEG outputs (config default).
  static let jpegQuality = 82
  /// `THUMBFORGE_FIDELITY_VERBOSE=1` prints every output's measure.
  static let verbose = ProcessInfo.processInfo.environment["THUMBFORGE_FIDELITY_VERBOSE"] == "1"

  /// The deliberate mistake `THUMBFORGE_FIDELITY_BREAK` names, if any.
  static let breaking = ProcessInfo.processInfo.environment["THUMBFORGE_FIDELITY_BREAK"].map {
    name in
    guard let value = FidelityBreak(rawValue: name) else {
      fatalError("THUMBFORGE_FIDELITY_BREAK: no break named \(name)")
    }
    return value
  }

  static var cases: [FidelityCase] {
    let count =
      ProcessInfo.processInfo.environment["THUMBFORGE_FIDELITY_CASES"].flatMap(Int.init)
      ?? defaultCount
    return FidelityCase.cases(seed: seed, count: count, avif: Vips.canSave(.avif))
  }

  /// How one output compares with its reference.
  struct Measure: CustomStringConvertible {
    var alphaMax = 0
    var colourMean = 0.0
    var colourMax = 0
    var problem: String?

    var description: String {
      problem
        ?? "alpha max \(alphaMax), colour mean \((colourMean * 1000).rounded() / 1000), colour max \(colourMax)"
    }

    var passes: Bool {
      problem == nil && alphaMax <= FidelityDifferentialTests.alphaTolerance
        && colourMean <= FidelityDifferentialTests.colourTolerance
    }
  }

  @Test("every dimension value is covered by the fixed case set")
  func coverage() {
    let avif = Vips.canSave(.avif)
    let covered = Set(Self.cases.flatMap(\.coverage))
    let missing = FidelityCase.allCoverage(avif: avif).filter { !covered.contains($0) }
    #expect(missing.isEmpty, "not covered: \(missing)")
    #expect(Self.cases == Self.cases, "the case set is deterministic")
  }

  @Test("masters below 8 bits are stored at their depth")
  func lowDepthMasters() throws {
    var random = PropertyRandom(seed: Self.seed)
    let low = FidelityCase.validCombinations(avif: false).filter { $0.depth.lowBits != nil }
    #expect(Set(low.map { "\($0.format) \($0.depth.rawValue)" }).count == 6)
    for var fidelityCase in low {
      (fidelityCase.width, fidelityCase.height) = (random.int(9...40), random.int(9...40))
      let bits = fidelityCase.depth.lowBits!
      let bytes = try fidelityCase.masterBytes()
      if fidelityCase.format == .png {
        // IHDR: bit depth, then colour type (0 grey, 3 palette).
        #expect(bytes[24] == bits && bytes[25] == (fidelityCase.isPalette ? 3 : 0))
      }
      guard !fidelityCase.isPalette else { continue }
      // A grey file of `bits` decodes to multiples of 255 / (2^bits − 1) only.
      let values = Set(try VipsImage.load(bytes: bytes).pixelBytes())
      #expect(values.count > 1 && values.count <= 1 << bits, "\(fidelityCase): \(values.sorted())")
      #expect(values.allSatisfy { Int($0) % (255 / ((1 << bits) - 1)) == 0 }, "\(fidelityCase)")
    }
  }

  /// The test's configuration: every scale, masters at 3x, the recipes' boxes, and a rule
  /// giving each case that is not `variants` its recipe.
  static func configuration(_ cases: [FidelityCase]) -> String {
    var text = "scales: [1, 2, 3]\nmaster-scale: 3\n" + FidelityRecipe.configuration
    let rules = cases.enumerated().filter { $0.element.recipe != .variants }.map { index, item in
      "  - match: \"\(item.fileName(index))\"\n    recipes: [\(item.recipe.rawValue)]\n"
    }
    if !rules.isEmpty { text += "rules:\n" + rules.joined() }
    return text
  }

  /// Writes `cases`' masters, renders them, and returns the decoded outputs by catalog path.
  static func render(_ cases: [FidelityCase], in harness: RenderHarness) throws -> [String:
    VipsImage]
  {
    for (index, fidelityCase) in cases.enumerated() {
      try harness.add(bytes: try fidelityCase.masterBytes(), as: fidelityCase.fileName(index))
    }
    let (_, images, problems) = try harness.render()
    #expect(problems.isEmpty, "\(problems)")
    return images
  }

  @Test("every recipe at 1x/2x/3x matches the libvips reference")
  func outputsMatchReference() throws {
    let cases = Self.cases
    let harness = try RenderHarness(config: Self.configuration(cases))
    defer { harness.remove() }
    let images = try Self.render(cases, in: harness)
    var failures: [String] = []
    for (index, fidelityCase) in cases.enumerated() {
      failures += try Self.check(
        fidelityCase, index: index, images: images, harness: harness, breaking: Self.breaking)
    }
    if !failures.isEmpty {
      print("Fidelity failures (\(failures.count)):\n" + failures.joined(separator: "\n"))
    }
    let known = failures.filter { $0.hasPrefix(Self.knownIssue) }
    let unknown = failures.filter { !$0.hasPrefix(Self.knownIssue) }
    #expect(
      unknown.isEmpty, "\(unknown.count) outputs differ:\n\(unknown.joined(separator: "\n"))")
    if !known.isEmpty {
      withKnownIssue { Issue.record("\(known.count) outputs:\n\(known.joined(separator: "\n"))") }
    }
  }

  @Test("each deliberate mistake in the reference is seen", arguments: FidelityBreak.allCases)
  func breaksAreSeen(_ breaking: FidelityBreak) throws {
    let cases = FidelityCase.probes(for: breaking, avif: Vips.canSave(.avif))
    #expect(!cases.isEmpty && cases.allSatisfy(breaking.affects))
    let harness = try RenderHarness(config: Self.configuration(cases))
    defer { harness.remove() }
    let images = try Self.render(cases, in: harness)
    for (index, fidelityCase) in cases.enumerated() {
      let right = try Self.check(fidelityCase, index: index, images: images, harness: harness)
        .filter { !$0.hasPrefix(Self.knownIssue) }
      #expect(right.isEmpty, "\(right)")
      let wrong = try Self.check(
        fidelityCase, index: index, images: images, harness: harness, breaking: breaking
      ).filter { !$0.hasPrefix(Self.knownIssue) }
      #expect(!wrong.isEmpty, "\(breaking.rawValue) is not seen on \(fidelityCase)")
      if let first = wrong.first { print("fidelity: \(breaking.rawValue) seen: \(first)") }
    }
  }

  /// Marks a failure line as a product issue proven by a measure: an opaque output resized
  /// from a reduced source (a JPEG shrunk on load, or the master box-halved by the pyramid)
  /// that alone misses the full master's reference: the output is that source resized.
  static let knownIssue = "known issue: "

  /// Failure lines for one case's three outputs (empty when all match).
  static func check(
    _ fidelityCase: FidelityCase, index: Int, images: [String: VipsImage],
    harness: RenderHarness, breaking: FidelityBreak? = nil
  ) throws -> [String] {
    let file = fidelityCase.fileName(index)
    let path = harness.folder.appendingPathComponent(file).path
    let reference = try FidelityReference(masterPath: path, breaking: breaking)
    let name = String(file.prefix { $0 != "." })
    let set = fidelityCase.recipe.imageSet(name)
    return try (1...3).compactMap { scale in
      let label = "\(file) @\(scale)x (\(fidelityCase))"
      let prefix = "\(set).imageset/\(name)@\(scale)x."
      guard let key = images.keys.first(where: { $0.hasPrefix(prefix) }), let output = images[key]
      else { return "\(label): no output" }
      return try checkOutput(
        output, key: key, label: label, reference: reference, recipe: fidelityCase.recipe,
        scale: scale)
    }
  }

  /// A failure line for one output, or nil when it matches its reference (directly, or by
  /// one of the measured explanations: ``explained(_:key:label:measure:reference:recipe:scale:made:)``).
  static func checkOutput(
    _ output: VipsImage, key: String, label: String, reference: FidelityReference,
    recipe: FidelityRecipe, scale: Int
  ) throws -> String? {
    var expected = try reference.expected(recipe, scale: scale)
    guard output.width == expected.width, output.height == expected.height else {
      return
        "\(label): size \(output.width)x\(output.height), expected \(expected.width)x\(expected.height)"
    }
    let jpeg = key.hasSuffix(".jpg")
    var measure = try compare(expected, output, jpeg: jpeg)
    if verbose { print("fidelity \(label) → \(key): \(measure)") }
    guard !measure.passes else { return nil }
    // A JPEG master shipped as it is (at master size) is the master's own pixels: compared
    // with the reference unencoded.
    if recipe == .variants, scale == 3, try compare(expected, output, jpeg: false).passes {
      return nil
    }
    var window: (x: Int, y: Int)?
    if recipe == .smartFill {
      guard let found = try smartCropWindow(output, reference: reference, scale: scale, jpeg: jpeg)
      else { return "\(label) → \(key): \(measure)" }
      print("fidelity: \(label): \(found.text)")
      guard !found.measure.passes else { return nil }
      (expected, measure, window) = (found.expected, found.measure, (found.x, found.y))
    }
    // The output's recipe made from `source` with `resampler` (at the output's window).
    let made = { (source: FidelityReference, resampler: FidelityReference.Resampler) in
      guard let window else {
        return try source.expected(recipe, scale: scale, resampler: resampler)
      }
      let size = try reference.fillScaled(.smartFill, scale: scale)
      return try source.resized(width: size.width, height: size.height, resampler: resampler)
        .crop(x: window.x, y: window.y, width: output.width, height: output.height)
        .copiedToMemory()
    }
    let why = try explained(
      output, jpeg: jpeg, expected: expected, reference: reference, made: made)
    switch why.explained {
    case true?:
      print("fidelity: \(label): \(measure); explained: \(why.text)")
      return nil
    case false?:
      return Self.knownIssue + "reduced source: \(label) → \(key): \(measure); \(why.text)"
    case nil: return "\(label) → \(key): \(measure); \(why.text)"
    }
  }

  /// The measured explanations of an output that misses the reference, each held to the
  /// same tolerances: (a) libvips' reduction is not a plain Lanczos 3 (it box-shrinks by
  /// whole factors first), so the output may instead match ``LanczosResampler``'s textbook
  /// Lanczos 3 (an independent third implementation) unencoded or encoded alike; (b) a JPEG
  /// output, ``splitJPEG(_:_:_:)``; (c) an opaque output ThumbForge resized from a reduced
  /// source, a JPEG decoded with libjpeg's shrink-on-load (2, 4 or 8) or the master
  /// box-halved by its pyramid: the reference reduced so and resized by the Vips module
  /// must match the full reference before encoding, and the output must match it.
  /// `explained` is true for (a), (b) and (c); false when the output is such a reduced
  /// source's resize but that source misses the reference (the known issue); nil otherwise.
  static func explained(
    _ output: VipsImage, jpeg: Bool, expected: VipsImage, reference: FidelityReference,
    made: (FidelityReference, FidelityReference.Resampler) throws -> VipsImage
  ) throws -> (explained: Bool?, text: String) {
    let textbook = try made(reference, .textbook)
    let libvipsVsTextbook = try compare(textbook, expected, jpeg: false)
    let outputVsTextbook = try compare(textbook, output, jpeg: jpeg)
    var text =
      "libvips vs textbook Lanczos 3 before encoding: \(libvipsVsTextbook); "
      + "output vs the latter: \(outputVsTextbook)"
    if outputVsTextbook.passes { return (true, text) }
    guard !reference.full.hasAlpha else { return (nil, text) }
    if jpeg {
      let split = try splitJPEG(expected, try made(reference, .vipsModule), output)
      text += "; " + split.text
      if split.explained { return (true, text) }
    }
    // The reduced sources ThumbForge may resize from: a JPEG decoded shrunk on load, the
    // master box-halved once or more (its pyramid).
    let reduced: [(String, () throws -> FidelityReference)] =
      [2, 4, 8].map { shrink in
        ("shrink-on-load \(shrink)", { try reference.reloaded(shrink: shrink) })
      }
      + [1, 2, 3].map { levels in ("box-halved \(levels)x", { try reference.halved(levels) }) }
    for (name, source) in reduced {
      guard let source = try? source() else { continue }
      let decoded = try made(source, .vipsModule)
      let after = try compare(decoded, output, jpeg: jpeg)
      guard after.passes else { continue }
      let before = try compare(expected, decoded, jpeg: false)
      text +=
        "; \(name): the reference so reduced vs the full one before encoding: \(before), "
        + "output vs it\(jpeg ? " encoded" : ""): \(after)"
      return (before.passes, text)
    }
    return (nil, text)
  }

  /// For an `attention` crop that differs from libvips' choice on the reference: the window
  /// of the reference's fill-scaled master that the output matches best (nil when the
  /// output is not a window of it). libvips' attention score is not stable under the small
  /// differences two resamplers (or JPEG shrink-on-load) make on this picture's texture, so
  /// the window's place is reported, not required; size, colour, alpha and orientation are
  /// still held to the tolerances, against that window.
  static func smartCropWindow(
    _ output: VipsImage, reference: FidelityReference, scale: Int, jpeg: Bool
  ) throws -> (measure: Measure, expected: VipsImage, x: Int, y: Int, text: String)? {
    let scaled = try reference.fillScaled(.smartFill, scale: scale)
    let own = try reference.fillScaled(.smartFill, scale: scale, resampler: .vipsModule)
    let chosen = try scaled.smartCropRect(
      width: output.width, height: output.height, interesting: .attention)
    func window(_ image: VipsImage, _ x: Int, _ y: Int) throws -> VipsImage {
      try image.crop(x: x, y: y, width: output.width, height: output.height).copiedToMemory()
    }
    // The place: where the same resize as the output's matches it best (exactly, when the
    // output is that window); the check: the reference's window there.
    var best: (mean: Double, x: Int, y: Int)?
    for y in 0...(scaled.height - output.height) {
      for x in 0...(scaled.width - output.width) {
        let measure = try compare(try window(own, x, y), output, jpeg: jpeg)
        guard measure.problem == nil else { return nil }
        if best.map({ measure.colourMean < $0.mean }) ?? true { best = (measure.colourMean, x, y) }
      }
    }
    guard let best else { return nil }
    let expected = try window(scaled, best.x, best.y)
    let measure = try compare(expected, output, jpeg: jpeg)
    let text =
      "attention crop at (\(best.x), \(best.y)) of the \(scaled.width)x\(scaled.height) resize; "
      + "libvips' attention on the reference picks (\(chosen.x), \(chosen.y)); the reference "
      + "there: \(measure)"
    return (measure, expected, best.x, best.y, text)
  }

  /// A JPEG output whose mean difference from the encoded reference exceeds the tolerance,
  /// split in two checks, each held to the same tolerances: (1) the reference (`expected`,
  /// resized by libvips' Lanczos 3) against the same recipe made from the same upright sRGB
  /// pixels resized by the Vips module's own Lanczos-3 resampler
  /// (`resize(width:height:kernel:region:)`, what ThumbForge uses for opaque 8-bit images),
  /// before any encoding (`own`); (2) the output against `own` encoded at the recipe's
  /// quality. Why: the two resamplers differ by a fraction of a band value, and two q82
  /// encodes of pixels that differ that little re-quantise this picture's fine colour
  /// texture (near Nyquist at 1x) differently, amplifying that small difference.
  /// Orientation, colour conversion, geometry and alpha are still checked against the
  /// independent reference; only the kernel implementation is compared before encoding.
  static func splitJPEG(_ expected: VipsImage, _ own: VipsImage, _ output: VipsImage)
    throws -> (explained: Bool, text: String)
  {
    let resamplers = try compare(expected, own, jpeg: false)
    let encoded = try compare(own, output, jpeg: true)
    return (
      resamplers.passes && encoded.passes,
      "libvips vs Vips-module resampler before encoding: \(resamplers); "
        + "output vs the latter encoded: \(encoded)"
    )
  }

  /// Compares an output with its reference. For a JPEG output the reference is first
  /// encoded at the recipe's quality with the same encoder (and in grey when the output is
  /// grey), so that both carry the same kind of compression loss.
  static func compare(_ reference: VipsImage, _ output: VipsImage, jpeg: Bool) throws -> Measure {
    var measure = Measure()
    if output.hasAlpha != reference.hasAlpha {
      measure.problem =
        "alpha: output \(output.hasAlpha ? "has" : "has no") alpha, "
        + "reference \(reference.hasAlpha ? "has" : "has no")"
      return measure
    }
    var expected = reference
    if jpeg {
      let grey = output.bands == 1
      let toEncode = grey ? try reference.colourspace(.bw) : reference
      let bytes = try toEncode.copiedToMemory()
        .encoded(as: .jpeg, options: SaveOptions(quality: jpegQuality))
      expected = try VipsImage.load(bytes: bytes).toSRGB8()
    }
    let left = try expected.pixelBytes()
    let right = try output.toSRGB8().pixelBytes()
    guard left.count == right.count else {
      measure.problem = "bands: output \(output.bands), reference \(reference.bands)"
      return measure
    }
    accumulate(left, right, alpha: reference.hasAlpha, into: &measure)
    return measure
  }

  /// Colour is compared premultiplied by alpha (on the 0–255 scale): colour under fully
  /// transparent pixels is invisible and encoders may change it.
  static func accumulate(
    _ left: [UInt8], _ right: [UInt8], alpha: Bool, into measure: inout Measure
  ) {
    let bands = alpha ? 4 : 3
    var sum = 0.0
    var samples = 0
    for pixel in stride(from: 0, to: left.count, by: bands) {
      let a = alpha ? Double(left[pixel + 3]) / 255 : 1
      let b = alpha ? Double(right[pixel + 3]) / 255 : 1
      if alpha {
        measure.alphaMax = max(measure.alphaMax, abs(Int(left[pixel + 3]) - Int(right[pixel + 3])))
      }
      for band in 0..<3 {
        let difference = abs(Double(left[pixel + band]) * a - Double(right[pixel + band]) * b)
        sum += difference
        samples += 1
        measure.colourMax = max(measure.colourMax, Int(difference.rounded()))
      }
    }
    measure.colourMean = sum / Double(max(1, samples))
  }
}
