import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge
@testable import ThumbForgeConfig

@Suite("serve request paths", .timeLimit(.minutes(10)))
struct ServePathTests {
  @Test func namedRecipeWithGroupedAsset() throws {
    let path = try ServePath("/SIG/tile/Resorts/les-arcs@2x.jpg")
    #expect(path.signature == "SIG")
    #expect(path.signedPart == "/tile/Resorts/les-arcs@2x.jpg")
    #expect(path.recipe == .named("tile"))
    #expect(path.asset == "Resorts/les-arcs")
    #expect(path.scale == 2)
    #expect(path.format == .jpeg)
  }

  @Test("percent-encoded names are decoded; the signed part stays as sent")
  func decoding() throws {
    let path = try ServePath("/unsafe/flag/Flags/United%20States@3x.PNG")
    #expect(path.asset == "Flags/United States")
    #expect(path.signedPart == "/flag/Flags/United%20States@3x.PNG")
    #expect(path.format == .png)
    let unicode = try ServePath("/unsafe/variants/Z%C3%BCrich%402x@1x.webp")
    #expect(unicode.asset == "Zürich@2x")
    #expect(unicode.scale == 1)
  }

  @Test func adHocBoxes() throws {
    #expect(
      try ServePath("/s/fill:600x400/Photo@2x.jpg").recipe == .adHoc(.fill, width: 600, height: 400)
    )
    #expect(
      try ServePath("/s/fit:10x20/Photo@1x.png").recipe == .adHoc(.fit, width: 10, height: 20))
    for (bad, reason) in [
      ("/s/flag:40x25/A@2x.png", "ad-hoc recipe 'flag' is not one of fit, fill"),
      ("/s/fill:600/A@2x.png", "ad-hoc size '600' is not WIDTHxHEIGHT in points"),
      ("/s/fill:0x10/A@2x.png", "ad-hoc size '0x10' is not WIDTHxHEIGHT in points"),
      ("/s/fill:axb/A@2x.png", "ad-hoc size 'axb' is not WIDTHxHEIGHT in points"),
    ] {
      #expect(throws: ServePathError.malformed(reason), "\(bad)") { try ServePath(bad) }
    }
  }

  /// Each path is refused for its own reason (the reason is the 400 answer's body).
  @Test(
    "path tricks and malformed paths are refused, each for its reason",
    arguments: [
      ("/s/tile/../etc/passwd@2x.jpg", "'.' and '..' segments"),
      ("/s/tile/./A@2x.jpg", "'.' and '..' segments"),
      ("/s/tile/%2E%2E/A@2x.jpg", "'.' and '..' segments"),
      ("/s/tile/a%2Fb@2x.jpg", "an encoded / or"), ("/s/tile/a%2fb@2x.jpg", "an encoded / or"),
      ("/s/tile/a%5Cb@2x.jpg", "an encoded / or"), ("/s/tile/a\\b@2x.jpg", "'\\' is not allowed"),
      ("/s/tile/a%00b@2x.jpg", "control characters"),
      ("/s/tile/a%0Ab@2x.jpg", "control characters"),
      ("/s/tile//A@2x.jpg", "an empty segment"), ("/s/tile/A@2x.jpg/", "an empty segment"),
      ("/s/tile/A@4x.jpg", "scale '4x'"), ("/s/tile/A@0x.jpg", "scale '0x'"),
      ("/s/tile/A@2.jpg", "scale '2'"), ("/s/tile/A.jpg", "must end in @{scale}x"),
      ("/s/tile/@2x.jpg", "the asset name is empty"), ("/s/tile/A@2x.gif", "extension '.gif'"),
      ("/s/tile/A@2x", "must end in @{scale}x"), ("/s/A@2x.jpg", "expected /{signature}"),
      ("s/tile/A@2x.jpg", "must start with /"), ("/s/tile/A%G1@2x.jpg", "bad percent-encoding"),
      ("/s/tile/A%C3@2x.jpg", "not valid UTF-8"), ("/s/tile/A%@2x.jpg", "bad percent-encoding"),
    ])
  func refused(_ raw: String, reason: String) {
    do {
      _ = try ServePath(raw)
      Issue.record("\(raw) was accepted")
    } catch {
      #expect(error.message.contains(reason), "\(raw): \(error.message)")
    }
  }

  @Test func overLongPathsAreRefused() throws {
    let name = String(repeating: "a", count: ServePath.maximumLength)
    #expect(throws: ServePathError.malformed("the path is longer than 1024 bytes")) {
      try ServePath("/s/tile/\(name)@2x.jpg")
    }
    _ = try ServePath("/s/tile/\(String(repeating: "a", count: 900))@2x.jpg")
  }

  @Test("placeholder paths: parsed like an image's, signed part as sent, ad-hoc boxes refused")
  func placeholderPaths() throws {
    let path = try #require(try PlaceholderPath("/sig/flag/Flags/United%20States.thumbhash"))
    #expect(path.signature == "sig" && path.signedPart == "/flag/Flags/United%20States.thumbhash")
    #expect(path.recipe == "flag" && path.asset == "Flags/United States")
    #expect(try PlaceholderPath("/sig/flag/Flags/Italy@2x.png") == nil)
    #expect(throws: ServePathError.self) { try PlaceholderPath("/sig/fill:10x10/A.thumbhash") }
    #expect(throws: ServePathError.self) { try PlaceholderPath("/sig/flag/.thumbhash") }
  }

  /// Generated hostile paths ending in `.thumbhash`: each is refused, or names an asset whose
  /// groups are plain segments (no empty, `.` or `..` one) and which holds no control
  /// character or backslash.
  @Test("generated hostile placeholder paths are refused or name a plain asset")
  func hostilePlaceholderPaths() {
    var random = PropertyRandom(seed: 0x7468_756d_6268)
    let pieces = [
      "a", "Flags", "..", ".", "%2E%2E", "%2F", "%5C", "\\", "%00", "%0A", "%", "%G1", "%C3",
      "%C3%A9", "~dark", "@2x", "", "é", "\u{7F}", "%7F", " ", "%20",
    ]
    // Plain pieces weigh more, so that a good share of paths get past the checks.
    let plain = ["a", "Italy", "Flags", "b-c", "é", "~dark"]
    var accepted = 0
    for _ in 0..<5000 {
      let segments = (0..<random.int(1...5)).map { _ in
        (0..<random.int(1...3)).map { _ in random.pick(random.chance(0.8) ? plain : pieces) }
          .joined()
      }
      let raw =
        "/" + random.pick(["unsafe", "sig", ""]) + "/" + segments.joined(separator: "/")
        + ".thumbhash"
      do {
        guard let path = try PlaceholderPath(raw) else {
          Issue.record("\(raw): not taken as a placeholder path")
          continue
        }
        accepted += 1
        // Groups are segments: never empty, `.` or `..`. The last part is a name to look up
        // (`..` there is no segment, as for an image: no such asset, 404).
        let parts = path.asset.split(separator: "/", omittingEmptySubsequences: false)
        #expect(!parts.contains { $0.isEmpty }, "\(raw)")
        #expect(!parts.dropLast().contains { $0 == "." || $0 == ".." }, "\(raw)")
        #expect(
          !path.asset.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" },
          "\(raw)")
      } catch {
        #expect(!error.message.isEmpty)
      }
    }
    #expect(accepted > 100)
  }
}
