/// How two images are blended by ``VipsImage/composite(_:mode:x:y:)``.
package enum BlendMode: String, Sendable {
  case over
  case destIn = "dest-in"
  case source
  case atop
}
