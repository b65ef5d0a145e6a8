/// An argument to a libvips operation, typed by the operation's own parameter spec.
///
/// Strings are converted to enums and flags by their libvips nickname (`"centre"`,
/// `"attention"`), so an invalid name is an error from libvips, not undefined behaviour.
enum VipsValue: Sendable {
  case int(Int)
  case double(Double)
  case bool(Bool)
  case string(String)
  case image(VipsImage)
  case images([VipsImage])
  case doubles([Double])
  case bytes([UInt8])
}
