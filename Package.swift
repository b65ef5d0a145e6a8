// swift-tools-version: 6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("InternalImportsByDefault"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
  name: "ThumbForge",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "thumbforge", targets: ["thumbforge"]),
    .library(name: "ThumbForge", targets: ["ThumbForge"]),
    .library(name: "Vips", targets: ["Vips"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
  ],
  targets: [
    .systemLibrary(
      name: "CVips",
      pkgConfig: "vips",
      providers: [.apt(["libvips-dev"]), .brew(["vips"])]
    ),
    // ThumbForge's own 8-bit resampler: plain C with AVX2 passes chosen at run time
    // (Swift has no per-function target features). Always -O2: -O0 makes debug test runs
    // crawl, and -O3 unrolls the tap loops into slower code.
    .target(name: "CResample", cSettings: [.unsafeFlags(["-O2"])]),
    // Strip-by-strip JPEG decoding with libjpeg-turbo (libvips' own dependency), for the
    // resize-while-decoding pass: see CJPEG.h.
    .target(
      name: "CJPEG", cSettings: [.unsafeFlags(["-O2"])], linkerSettings: [.linkedLibrary("jpeg")]),
    .target(
      name: "Vips", dependencies: ["CVips", "CResample", "CJPEG"], swiftSettings: strictSettings),
    .target(
      name: "ThumbForge",
      dependencies: [
        "Vips",
        .product(name: "Yams", package: "Yams"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "thumbforge",
      dependencies: [
        "ThumbForge",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strictSettings
    ),
    // libFuzzer harnesses (README "Fuzzing"): plain executables that replay input files in
    // an ordinary build; Fuzz/<name>/build.sh rebuilds them with --sanitize=fuzzer.
    .executableTarget(
      name: "fuzz-state-files", dependencies: ["ThumbForge"], path: "Fuzz/state-files",
      exclude: ["build.sh", "seeds"], swiftSettings: strictSettings),
    .executableTarget(
      name: "fuzz-pipeline", dependencies: ["ThumbForge", "Vips"], path: "Fuzz/pipeline",
      exclude: ["build.sh", "seeds"], swiftSettings: strictSettings),
    .target(name: "ThumbForgeTestSupport", dependencies: ["Vips"], swiftSettings: strictSettings),
    .testTarget(
      name: "VipsTests", dependencies: ["Vips", "ThumbForgeTestSupport"],
      swiftSettings: strictSettings),
    .testTarget(
      name: "ThumbForgeTests",
      dependencies: ["ThumbForge", "Vips", "ThumbForgeTestSupport"],
      // Reference renders, read through #filePath (Golden), not bundled.
      exclude: ["Goldens"],
      swiftSettings: strictSettings),
    .testTarget(
      name: "ThumbForgeCLITests",
      dependencies: ["thumbforge", "ThumbForge", "Vips", "ThumbForgeTestSupport"],
      swiftSettings: strictSettings),
  ]
)
