// swift-tools-version: 6.1
// ThumbForge @VERSION@ as a binary: the `thumbforge` command plugin running a prebuilt
// `thumbforge` (an artifact bundle), so that an app adding this package compiles nothing of
// ThumbForge. Made by Scripts/release.sh from ThumbForge's own plugin.
import PackageDescription

let package = Package(
  name: "ThumbForgeBinaryPlugin",
  platforms: [.macOS(.v14)],
  products: [.plugin(name: "ThumbForgePlugin", targets: ["ThumbForgePlugin"])],
  targets: [
    @BINARY_TARGET@,
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
  ]
)
