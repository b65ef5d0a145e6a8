import Testing
import Vips

@testable import ThumbForgeBasics

@Suite("libvips' messages in one line")
struct ErrorWordingTests {
  @Test(
    "a damaged image is named by the decoder's own complaint, not a `source:` line that came first"
  )
  func damageNamesTheDecodersComplaint() {
    for message in [
      "source: bad seek to 1354; vipspng: libpng read error",
      "source: bad seek to 1487; vipspng: libpng read error", "vipspng: libpng read error",
    ] {
      #expect(
        ErrorWording.describe(VipsError(context: "pngload", message: message))
          == "damaged or truncated image: vipspng: libpng read error", "\(message)")
    }
    #expect(
      ErrorWording.describe(
        VipsError(
          context: "gifload", message: "source: bad seek to 1212; gifload: Invalid frame data"))
        == "gifload: Invalid frame data")
    #expect(
      ErrorWording.describe(VipsError(context: "x", message: "source: bad seek to 12"))
        == "source: bad seek to 12")
  }
}
