# Homebrew formula for a ThumbForge release, filled in by `Scripts/release.sh finish URL`
# (dist/thumbforge.rb): the prebuilt macOS `thumbforge` from the release's artifact bundle,
# with libvips from Homebrew. Put it in a tap (Formula/thumbforge.rb) to publish it.
class Thumbforge < Formula
  desc "Image and thumbnail pipeline for Xcode asset catalogs, on libvips"
  homepage "@HOMEPAGE@"
  url "@URL@"
  sha256 "@SHA256@"
  version "@VERSION@"

  depends_on :macos
  depends_on "vips"

  def install
    triple = Hardware::CPU.arm? ? "arm64-apple-macosx" : "x86_64-apple-macosx"
    bin.install "thumbforge-#{version}-#{triple}/bin/thumbforge"
  end

  test do
    (testpath/"Assets/thumbforge.yml").write "output: ../Build/Assets.xcassets\n"
    system "vips", "black", testpath/"Assets/Dot.png", "6", "6"
    system bin/"thumbforge", "build", testpath/"Assets", "--quiet"
    assert_path_exists testpath/"Build/Assets.xcassets/Dot.imageset/Contents.json"
    system bin/"thumbforge", "check", testpath/"Assets"
  end
end
