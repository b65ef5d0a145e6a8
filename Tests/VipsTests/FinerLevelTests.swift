import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// A large master's smaller outputs are resized from its largest whole-frame output, not
/// from the file: a fraction of the work, the picture of a resize of the file.
@Suite struct FinerLevelTests {
  /// A 3x photo's requests at 4000×3000: the 2x variant, the 1x variant, a fit into 1024,
  /// a fill of 1200×800 and a 300 pt tile at 2x (both cut from a larger resize).
  static let photo = (width: 4000, height: 3000)
  static let twoX = ResizeRequest(width: 2667, height: 2000)
  static let oneX = ResizeRequest(width: 1333, height: 1000)
  static let fit = ResizeRequest(width: 1024, height: 768)
  static let fill = ResizeRequest(
    width: 1200, height: 900, region: VipsRect(x: 0, y: 50, width: 1200, height: 800))
  static let tile = ResizeRequest(
    width: 800, height: 600, region: VipsRect(x: 100, y: 0, width: 600, height: 600))

  @Test func aPhotosSmallerOutputsComeFromItsTwoXVariant() {
    let finer = MasterImage.finerLevels(
      [Self.twoX, Self.oneX, Self.fit, Self.fill, Self.tile], base: Self.photo)
    #expect(finer[Self.twoX] == nil)
    for request in [Self.oneX, Self.fit, Self.fill] {
      #expect(finer[request] == Self.twoX, "\(request)")
    }
  }

  /// A 1x tile (600×450 before its cut) is under a sixth of the photo (its half-size copy,
  /// 2000×1500, is three times its size): the pyramid resizes it from that copy, as before
  /// finer levels, not from the 2x variant. The fit (1024×768) is over a sixth: from the 2x.
  @Test func outputsThePyramidServesKeepIt() {
    let small = ResizeRequest(
      width: 600, height: 450, region: VipsRect(x: 75, y: 0, width: 450, height: 450))
    let finer = MasterImage.finerLevels([Self.twoX, small, Self.fit], base: Self.photo)
    #expect(finer[small] == nil)
    #expect(finer[Self.fit] == Self.twoX)
  }

  @Test func onlyAWholeFrameResizeWithTheSameKernelAndTheGapIsALevel() {
    let cut = ResizeRequest(
      width: 2667, height: 2000, region: VipsRect(x: 0, y: 0, width: 2000, height: 2000))
    let cubic = ResizeRequest(width: 1333, height: 1000, kernel: .cubic)
    let tooClose = ResizeRequest(width: 1800, height: 1350)  // 2667 < 1.5 × 1800
    let finer = MasterImage.finerLevels([cut, cubic, tooClose], base: Self.photo)
    #expect(finer[cubic] == nil)
    #expect(finer[tooClose] == nil)
    // The largest whole-frame request that is not itself served becomes the level.
    let withLevel = MasterImage.finerLevels([Self.twoX, tooClose, Self.fit], base: Self.photo)
    #expect(withLevel[tooClose] == nil)
    #expect(withLevel[Self.fit] == tooClose)  // the smallest level still 1.5 times larger
  }

  @Test func smallMastersKeepResizingFromTheFile() {
    let small = (width: 2048, height: 1536)  // 3.1 MP
    #expect(small.width * small.height < MasterImage.finerLevelMinimumPixels)
    let finer = MasterImage.finerLevels(
      [ResizeRequest(width: 1365, height: 1024), ResizeRequest(width: 512, height: 384)],
      base: small)
    #expect(finer.isEmpty)
  }

  @Test func theDerivedOutputsAreResizesOfTheLevelAndLookLikeResizesOfTheFile() throws {
    try withTemporaryDirectory { directory in
      // A 4.7 MP photo: the sample photo enlarged, saved as a JPEG.
      let sample = try VipsImage.load(
        path: Fixtures.packageRoot.appendingPathComponent("Assets/Resorts/les-arcs@2x.jpg").path)
      let large = try sample.resize(width: 3072, height: 1536, region: nil)
      let file = try Fixtures.write(large, as: .jpeg, named: "large.jpg", in: directory)
      let level = ResizeRequest(width: 2048, height: 1024)
      let requests = [
        level, ResizeRequest(width: 1024, height: 512),
        ResizeRequest(
          width: 1200, height: 600, region: VipsRect(x: 300, y: 0, width: 600, height: 600)),
      ]
      let master = try MasterImage(path: file.path, resizes: requests)
      #expect(master.image.width == 3072)
      var made: [Int: VipsImage] = [:]
      try master.resize(requests) { indices, image in
        for index in indices { made[index] = image }
      }
      let levelImage = try #require(made[0])
      let whole = try VipsImage.load(path: file.path)
      for (index, request) in requests.enumerated().dropFirst() {
        let image = try #require(made[index])
        // Exactly the level's resize (so the level was used) ...
        let fromLevel = try levelImage.resize(
          width: request.width, height: request.height, region: request.region)
        #expect(try image.pixelBytes() == fromLevel.pixelBytes(), "\(request)")
        // ... and the same picture as a resize of the whole file.
        let direct = try whole.resize(
          width: request.width, height: request.height, region: request.region)
        let comparison = try ImageComparison(direct, image)
        #expect(comparison.meanDifference < 0.5, "\(comparison)")
        #expect(comparison.maxDifference <= 16, "\(comparison)")
      }
    }
  }
}

extension FinerLevelTests {
  /// Requests of another kernel have no finer level: two small ones still share the
  /// half-size copy, and every request is made once, from one source.
  @Test func finerLevelsAndTheHalfSizeCopyServeEachRequestOnce() throws {
    try withTemporaryDirectory { directory in
      let sample = try VipsImage.load(
        path: Fixtures.packageRoot.appendingPathComponent("Assets/Resorts/les-arcs@2x.jpg").path)
      let file = try Fixtures.write(
        try sample.resize(width: 3072, height: 1536, region: nil), as: .jpeg, named: "large.jpg",
        in: directory)
      let level = ResizeRequest(width: 2048, height: 1024)
      let fromLevel = ResizeRequest(width: 1024, height: 512)
      let cubicSmall = ResizeRequest(width: 600, height: 300, kernel: .cubic)
      let cubicSmaller = ResizeRequest(width: 500, height: 250, kernel: .cubic)
      let requests = [level, fromLevel, cubicSmall, cubicSmaller, fromLevel]
      let master = try MasterImage(path: file.path, resizes: requests)
      var served: [Int: Int] = [:]
      var made: [Int: VipsImage] = [:]
      try master.resize(requests) { indices, image in
        for index in indices {
          served[index, default: 0] += 1
          made[index] = image
        }
      }
      #expect(served == [0: 1, 1: 1, 2: 1, 3: 1, 4: 1])
      let levelImage = try #require(made[0])
      let expected = try levelImage.resize(width: 1024, height: 512, region: nil)
      #expect(try made[1]?.pixelBytes() == expected.pixelBytes())
      #expect(made[1] === made[4])
      for index in [2, 3] {
        let image = try #require(made[index])
        #expect(image.width == requests[index].width && image.height == requests[index].height)
      }
    }
  }
}
