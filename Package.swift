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
    // The tool and its plugin are the package's products; the modules (ThumbForge, Vips,
    // ThumbForgeServer) are `package`-internal, used by this package's targets and tests.
    .executable(name: "thumbforge", targets: ["thumbforge"]),
    // `swift package thumbforge build|check|lint|…` in a package that depends on this one,
    // and Xcode's project menu (ThumbForge) in an Xcode project that adds this package.
    .plugin(name: "ThumbForgePlugin", targets: ["ThumbForgePlugin"]),
  ],
  // `Serve`: `thumbforge serve` and what only it needs (Hummingbird, NIO, Prometheus,
  // service lifecycle). On in this package's own builds; an app that only wants the plugin
  // turns it off (`.package(url: …, from: …, traits: [])`) and compiles none of the server.
  traits: [
    .trait(name: "Serve", description: "thumbforge serve: the on-demand image server."),
    .default(enabledTraits: ["Serve"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CVips",
      pkgConfig: "vips",
      providers: [.apt(["libvips-dev"]), .brew(["vips"])]
    ),
    // ThumbForge's own 8-bit resampler: plain C with AVX2 passes chosen at run time
    // (Swift has no per-function target features). Release builds compile C at -O2
    // (SwiftPM's default); no unsafe flags, so that other packages can depend on this one.
    .target(name: "CResample"),
    // Strip-by-strip JPEG decoding with libjpeg-turbo (libvips' own dependency), for the
    // resize-while-decoding pass: see CJPEG.h.
    .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
    // PNG encoding with libpng (libvips' own dependency) on the caller's thread: see CPNG.h.
    .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16")]),
    // The C the Vips module needs beyond libvips' API (module loading, allocator settings,
    // memory images, WebP metadata): see CVipsHelpers.h.
    .target(name: "CVipsHelpers", dependencies: ["CVips"]),
    .target(
      name: "Vips", dependencies: ["CVips", "CVipsHelpers", "CResample", "CJPEG", "CPNG"],
      swiftSettings: strictSettings),
    // SHA-256 and HMAC from the platform: OpenSSL's libcrypto on Linux (libvips-dev's own
    // dependency), CryptoKit on Apple systems; no cryptography library is compiled.
    .systemLibrary(
      name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    // The core, one module per stage of the pipeline; each imports only the ones above it in
    // this list, so an upward use does not compile (docs/architecture.md, "Modules").
    // Files and hashes, folder listing, the work queue, the LRU cache; sizes and rectangles.
    .target(
      name: "ThumbForgeBasics",
      dependencies: ["Vips", .target(name: "COpenSSL", condition: .when(platforms: [.linux]))],
      swiftSettings: strictSettings),
    // Recipes and their parameters; `thumbforge.yml` read and checked.
    .target(
      name: "ThumbForgeConfig",
      dependencies: ["ThumbForgeBasics", "Vips", .product(name: "Yams", package: "Yams")],
      swiftSettings: strictSettings),
    // A run's locations and state files, the manifest, Xcode's catalog format.
    .target(
      name: "ThumbForgeCatalog", dependencies: ["ThumbForgeBasics", "ThumbForgeConfig"],
      swiftSettings: strictSettings),
    // Masters found and probed, and the pure planner: jobs, imagesets, outputs.
    .target(
      name: "ThumbForgePlanning",
      dependencies: ["ThumbForgeBasics", "ThumbForgeConfig", "ThumbForgeCatalog", "Vips"],
      swiftSettings: strictSettings),
    // A planned output rendered with libvips, and a copy verified.
    .target(
      name: "ThumbForgeRendering",
      dependencies: [
        "ThumbForgeBasics", "ThumbForgeConfig", "ThumbForgeCatalog", "ThumbForgePlanning", "Vips",
      ],
      swiftSettings: strictSettings),
    // The build's stages and destinations, merge, check, serve's view of a folder, init.
    .target(
      name: "ThumbForge",
      dependencies: [
        "ThumbForgeBasics", "ThumbForgeConfig", "ThumbForgeCatalog", "ThumbForgePlanning",
        "ThumbForgeRendering", "Vips",
      ],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "thumbforge",
      dependencies: [
        "ThumbForge", "ThumbForgeBasics", "ThumbForgeConfig", "ThumbForgeCatalog",
        "ThumbForgePlanning",
        "ThumbForgeRendering",
        .target(name: "ThumbForgeServer", condition: .when(traits: ["Serve"])),
        .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Serve"])),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strictSettings
    ),
    // Runs the `thumbforge` tool built from this package in the package (or Xcode project)
    // directory: Plugins/ThumbForgePlugin.
    .plugin(
      name: "ThumbForgePlugin",
      capability: .command(
        intent: .custom(
          verb: "thumbforge",
          description:
            "Run thumbforge (build, check, lint, regenerate, …) in the package directory; the asset folder defaults to Assets."
        ),
        permissions: [
          .writeToPackageDirectory(
            reason:
              "thumbforge build writes the asset catalog and manifest (and the Swift constants file when configured) where thumbforge.yml's 'output' says."
          )
        ]
      ),
      dependencies: ["thumbforge"]
    ),
    // `serve`: Hummingbird routes, signatures, the result cache, metrics, lifecycle.
    .target(
      name: "ThumbForgeServer",
      dependencies: [
        "ThumbForge", "ThumbForgeBasics", "ThumbForgeConfig", "ThumbForgeCatalog",
        "ThumbForgePlanning",
        "ThumbForgeRendering", "Vips",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
      ],
      swiftSettings: strictSettings
    ),
    // libFuzzer harnesses (README "Fuzzing"): plain executables that replay input files in
    // an ordinary build; Fuzz/<name>/build.sh rebuilds them with --sanitize=fuzzer.
    .executableTarget(
      name: "fuzz-state-files", dependencies: ["ThumbForge", "ThumbForgeCatalog"],
      path: "Fuzz/state-files",
      exclude: ["build.sh", "seeds"], swiftSettings: strictSettings),
    .executableTarget(
      name: "fuzz-pipeline",
      dependencies: [
        "ThumbForge", "ThumbForgeBasics", "ThumbForgeConfig", "ThumbForgeCatalog",
        "ThumbForgePlanning",
        "ThumbForgeRendering", "Vips", "ThumbForgeTestSupport",
      ],
      path: "Fuzz/pipeline",
      exclude: ["build.sh", "seeds"], swiftSettings: strictSettings),
    .target(name: "ThumbForgeTestSupport", dependencies: ["Vips"], swiftSettings: strictSettings),
    .testTarget(
      name: "VipsTests", dependencies: ["Vips", "CVips", "CVipsHelpers", "ThumbForgeTestSupport"],
      swiftSettings: strictSettings),
    .testTarget(
      name: "ThumbForgeTests",
      dependencies: [
        "ThumbForge", "ThumbForgeBasics", "ThumbForgeConfig", "ThumbForgeCatalog",
        "ThumbForgePlanning",
        "ThumbForgeRendering", "Vips", "ThumbForgeTestSupport",
      ],
      // Reference renders, read through #filePath (Golden), not bundled.
      exclude: ["Goldens"],
      swiftSettings: strictSettings),
    .testTarget(
      name: "ThumbForgeServerTests",
      dependencies: [
        "ThumbForgeServer", "ThumbForge", "ThumbForgeBasics", "ThumbForgeConfig",
        "ThumbForgeCatalog", "ThumbForgePlanning",
        "ThumbForgeRendering", "Vips",
        "ThumbForgeTestSupport",
        // Not HummingbirdTesting: its router tests need no HTTP client, yet the product
        // builds one (AsyncHTTPClient, with TLS); RouterTestClient does the same in process.
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: strictSettings),
    .testTarget(
      name: "ThumbForgeCLITests",
      dependencies: [
        "thumbforge", "ThumbForge", "ThumbForgeBasics", "ThumbForgeConfig", "ThumbForgeCatalog",
        "ThumbForgePlanning",
        "ThumbForgeRendering", "Vips",
        "ThumbForgeTestSupport",
        .product(name: "Yams", package: "Yams"),
      ],
      swiftSettings: strictSettings),
  ]
)
