import Testing

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgePlanning

@Suite("Master names and globs")
struct NamingTests {
  @Test("asset name, scale suffix, dark appearance and kind come from the file name")
  func masterNames() throws {
    let flag = try #require(MasterName(fileName: "United States@3x.png"))
    #expect(flag.asset == "United States" && flag.scale == 3 && !flag.isVector && !flag.isDark)
    let vector = try #require(MasterName(fileName: "Mountain.svg"))
    #expect(vector.isVector && vector.scale == nil)
    let dark = try #require(MasterName(fileName: "Logo~dark@2x.PNG"))
    #expect(dark.asset == "Logo" && dark.isDark && dark.scale == 2 && dark.fileExtension == "png")
    let plain = try #require(MasterName(fileName: "photo.jpeg"))
    #expect(plain.scale == nil && plain.asset == "photo")
    #expect(MasterName(fileName: "notes.txt") == nil)
    #expect(MasterName(fileName: ".png") == nil)
    // A name with an @ that is not a scale suffix keeps it.
    #expect(MasterName(fileName: "user@home.png")?.asset == "user@home")
    #expect(MasterName(fileName: "Zürich@2x.jpg")?.asset == "Zürich")
  }

  @Test(
    "an unknown scale suffix makes no master (it never becomes part of the name) and says why",
    arguments: ["@4x", "@1.5x", "@0x", "@10x", "@2.0x", "@4X"])
  func unknownScaleSuffix(suffix: String) {
    #expect(MasterName(fileName: "Weird\(suffix).png") == nil)
    #expect(MasterName(fileName: "Weird~dark\(suffix).png") == nil)
    #expect(MasterName.unknownScaleSuffix(fileName: "Weird\(suffix).png") == suffix)
    let problem = MasterName.unknownScaleProblem(path: "Icons/Weird\(suffix).png")
    #expect(problem?.path == "Icons/Weird\(suffix).png")
    #expect(
      problem?.reason.hasPrefix(
        "unknown scale suffix '\(suffix)': ThumbForge reads @1x, @2x and @3x") == true)
    #expect(MasterName.whyNot(fileName: "Weird\(suffix).png").contains("unknown scale suffix"))
  }

  @Test("@2X is @2x: the suffix's meaning is not in doubt")
  func upperCaseSuffix() throws {
    let name = try #require(MasterName(fileName: "Logo~dark@2X.png"))
    #expect(name.asset == "Logo" && name.scale == 2 && name.isDark)
    #expect(MasterName.unknownScaleSuffix(fileName: "Logo@3X.png") == nil)
  }

  @Test("globs: * stays in one folder, ** crosses folders, braces are alternatives")
  func globs() throws {
    #expect(try Glob("Flags/**").matches("Flags/Italy@2x.png"))
    #expect(try Glob("Flags/**").matches("Flags/Europe/Italy@2x.png"))
    #expect(try !Glob("Flags/*").matches("Flags/Europe/Italy@2x.png"))
    #expect(try Glob("Resorts/*.jpg").matches("Resorts/les-arcs@2x.jpg"))
    #expect(try !Glob("Resorts/*.jpg").matches("Resorts/les-arcs@2x.png"))
    #expect(try Glob("**/*.{png,svg}").matches("Icons/Star@2x.png"))
    #expect(try Glob("**/*.{png,svg}").matches("Mountain.svg"))
    #expect(try Glob("Ital?").matches("Italy"))
    #expect(throws: Glob.Invalid.self) { try Glob("Flags/{a,b") }
  }

  @Test("assets group masters by folder and name; two masters for one slot conflict")
  func grouping() {
    func master(_ path: String, scale: Int?, size: PixelSize) -> Master {
      Master(
        path: path, scale: scale, isVector: scale == nil, isDark: path.contains("~dark"),
        fileExtension: String(path.split(separator: ".").last!), pixelSize: size, hasAlpha: false,
        isPlainSRGB: true, hash: path)
    }
    func entry(_ master: Master) -> AssetGrouper.Entry {
      var group = master.path.split(separator: "/").map(String.init)
      let name = MasterName(fileName: group.removeLast())!
      return AssetGrouper.Entry(master: master, group: group, asset: name.asset)
    }
    let (assets, problems) = AssetGrouper.group(
      [
        master("Flags/Italy@2x.png", scale: 2, size: PixelSize(width: 400, height: 200)),
        master("Flags/Italy@3x.png", scale: 3, size: PixelSize(width: 600, height: 300)),
        master("Flags/Italy~dark@2x.png", scale: 2, size: PixelSize(width: 400, height: 200)),
        master("Photos/Italy@2x.jpg", scale: 2, size: PixelSize(width: 2048, height: 1024)),
        master("Icons/Star@2x.png", scale: 2, size: PixelSize(width: 48, height: 48)),
        master("Icons/Star@2x.jpg", scale: 2, size: PixelSize(width: 48, height: 48)),
        master("Icons/Bad@2x.png", scale: 2, size: PixelSize(width: 48, height: 48)),
        master("Icons/Bad@3x.png", scale: 3, size: PixelSize(width: 100, height: 72)),
      ].map(entry))
    #expect(assets.map(\.qualifiedName) == ["Flags/Italy", "Photos/Italy"])
    #expect(assets[0].masters.count == 2 && assets[0].darkMasters.count == 1)
    #expect(problems.count == 2)
    #expect(
      problems.contains {
        $0.path == "Icons/Star@2x.png" && $0.reason.contains("Icons/Star@2x.jpg")
      }
        || problems.contains {
          $0.path == "Icons/Star@2x.jpg" && $0.reason.contains("Icons/Star@2x.png")
        })
    #expect(problems.contains { $0.reason.contains("Icons/Bad@2x.png") })
    // 100×72 px at 3x against 48×48 px at 2x, in points as people write them.
    #expect(
      problems.contains {
        $0.path == "Icons/Bad@3x.png"
          && $0.reason == "conflicts with Icons/Bad@2x.png: 33.3 × 24 pt vs 24 × 24 pt"
      }, "\(problems)")
  }
}
