internal import CVips
internal import Synchronization

/// Calls libvips operations by name through its generic operation API.
///
/// This follows libvips' binding guide: `vips_operation_new`, properties set from
/// `GValue`s typed by each argument's `GParamSpec`, `vips_cache_operation_buildp`.
/// No C varargs are involved, so a wrongly typed option is a thrown error.
enum VipsOperation {
  typealias Arguments = VipsArguments

  /// Runs an operation whose result is the image `out`.
  static func image(_ name: String, _ arguments: Arguments) throws(VipsError) -> VipsImage {
    try run(name, arguments) { op throws(VipsError) in
      try readImage(op, "out", context: name)
    }
  }

  /// Runs an operation whose result is a byte buffer (savers to memory).
  static func bytes(_ name: String, _ arguments: Arguments, output: String = "buffer")
    throws(VipsError) -> [UInt8]
  {
    try run(name, arguments) { op throws(VipsError) in
      var value = GValue()
      g_value_init(&value, vips_blob_get_type())
      defer { g_value_unset(&value) }
      g_object_get_property(gobject(op), output, &value)
      var length = 0
      guard let data = vips_value_get_blob(&value, &length) else { return [] }
      return Array(UnsafeRawBufferPointer(start: data, count: length))
    }
  }

  /// Runs an operation whose result is an array of doubles.
  static func doubles(_ name: String, _ arguments: Arguments, output: String)
    throws(VipsError) -> [Double]
  {
    try run(name, arguments) { op throws(VipsError) in
      var value = GValue()
      g_value_init(&value, vips_array_double_get_type())
      defer { g_value_unset(&value) }
      g_object_get_property(gobject(op), output, &value)
      var count: Int32 = 0
      guard let array = vips_value_get_array_double(&value, &count) else { return [] }
      return (0..<Int(count)).map { array[$0] }
    }
  }

  /// Runs an operation whose result is one double.
  static func double(_ name: String, _ arguments: Arguments, output: String = "out")
    throws(VipsError) -> Double
  {
    try run(name, arguments) { op throws(VipsError) in
      var value = GValue()
      g_value_init(&value, cvips_type_double())
      defer { g_value_unset(&value) }
      g_object_get_property(gobject(op), output, &value)
      return g_value_get_double(&value)
    }
  }

  /// Runs an operation for its side effect (savers to file).
  static func run(_ name: String, _ arguments: Arguments) throws(VipsError) {
    try run(name, arguments) { _ throws(VipsError) in () }
  }

  /// Whether operation `name` has an argument called `argument` (for options added
  /// or renamed between libvips versions).
  /// The answer is remembered: it is asked on every load and save.
  static func has(_ name: String, argument: String) -> Bool {
    let key = name + "\u{0}" + argument
    if let known = knownArguments.withLock({ $0[key] }) { return known }
    guard let op = FormatModules.retrying({ vips_operation_new(name) }) else {
      vips_error_clear()
      return false
    }
    defer { g_object_unref(op) }
    let found = findProperty(op, argument) != nil
    knownArguments.withLock { $0[key] = found }
    return found
  }

  private static let knownArguments = Mutex<[String: Bool]>([:])

  // MARK: - Internals

  /// The file a loader reads (its `filename`); nil for other operations, whose messages
  /// may name the file their input came from.
  private static func loadedFile(_ name: String, _ arguments: Arguments) -> String? {
    guard name.hasSuffix("load") else { return nil }
    for (key, value) in arguments.pairs where key == "filename" {
      if case .string(let path) = value { return path }
    }
    return nil
  }

  private static func run<T>(
    _ name: String, _ arguments: Arguments,
    read: (UnsafeMutablePointer<CVips.VipsOperation>) throws(VipsError) -> T
  ) throws(VipsError) -> T {
    try Vips.initialize()
    try RenderCancellation.check(name)
    guard let created = FormatModules.retrying({ vips_operation_new(name) }) else {
      throw VipsError.fromBuffer(context: name)
    }
    for (key, value) in arguments.pairs {
      do {
        try set(created, key, value, operation: name)
      } catch {
        g_object_unref(created)
        throw error
      }
    }
    var built: UnsafeMutablePointer<CVips.VipsOperation>? = created
    // No lock anywhere: the one thing libvips 8.14 does that is not thread-safe here is
    // liborc's, and `Vips.initialize` turns liborc off (see `Vips.isVectorEnabled`).
    if vips_cache_operation_buildp(&built) != 0 {
      let error = VipsError.fromBuffer(context: name, file: loadedFile(name, arguments))
      vips_object_unref_outputs(vipsObject(created))
      g_object_unref(created)
      throw error
    }
    let op = built!
    defer {
      vips_object_unref_outputs(vipsObject(op))
      g_object_unref(op)
    }
    return try read(op)
  }

  private static func readImage(
    _ op: UnsafeMutablePointer<CVips.VipsOperation>, _ key: String, context: String
  ) throws(VipsError) -> VipsImage {
    var value = GValue()
    g_value_init(&value, vips_image_get_type())
    defer { g_value_unset(&value) }
    g_object_get_property(gobject(op), key, &value)
    guard let raw = g_value_get_object(&value) else {
      throw VipsError(context: context, message: "operation produced no image")
    }
    g_object_ref(raw)
    return VipsImage(owning: raw.assumingMemoryBound(to: CVips.VipsImage.self))
  }

  private static func findProperty(
    _ op: UnsafeMutablePointer<CVips.VipsOperation>, _ key: String
  ) -> UnsafeMutablePointer<GParamSpec>? {
    let instance = UnsafeMutableRawPointer(op).assumingMemoryBound(to: GTypeInstance.self)
    guard let objectClass = instance.pointee.g_class else { return nil }
    return g_object_class_find_property(
      UnsafeMutableRawPointer(objectClass).assumingMemoryBound(to: GObjectClass.self), key)
  }

  /// Sets the operation's argument `key` to `argument`, converted to the argument's type.
  private static func set(
    _ op: UnsafeMutablePointer<CVips.VipsOperation>, _ key: String, _ argument: VipsValue,
    operation: String
  ) throws(VipsError) {
    guard let spec = findProperty(op, key) else {
      throw VipsError(context: operation, message: "no argument named '\(key)'")
    }
    let type = spec.pointee.value_type
    var value = GValue()
    g_value_init(&value, type)
    defer { g_value_unset(&value) }
    try store(argument, in: &value, type: type, key: key, operation: operation)
    g_object_set_property(gobject(op), key, &value)
  }

  /// The error of an argument whose Swift value does not fit the property's type.
  private static func mismatch(_ key: String, operation: String) -> VipsError {
    VipsError(context: operation, message: "argument '\(key)' has the wrong type")
  }

  /// Stores `argument` in `value`, initialised to the property's `type`: numbers become the
  /// property's number type (range-checked), texts its enum, flags or string.
  private static func store(
    _ argument: VipsValue, in value: inout GValue, type: GType, key: String, operation: String
  ) throws(VipsError) {
    let fundamental = g_type_fundamental(type)
    switch argument {
    case .int(let number):
      try store(int: number, in: &value, fundamental: fundamental, key: key, operation: operation)
    case .double(let number):
      try store(
        double: number, in: &value, fundamental: fundamental, key: key, operation: operation)
    case .bool(let flag):
      guard fundamental == cvips_type_boolean() else { throw mismatch(key, operation: operation) }
      g_value_set_boolean(&value, flag ? 1 : 0)
    case .string(let text):
      try store(string: text, in: &value, type: type, key: key, operation: operation)
    case .image(let image):
      g_value_set_object(&value, image.pointer)
    case .images(let images):
      try store(images: images, in: &value, key: key, operation: operation)
    case .doubles(let numbers):
      numbers.withUnsafeBufferPointer { buffer in
        vips_value_set_array_double(&value, buffer.baseAddress, Int32(buffer.count))
      }
    case .bytes(let bytes):
      try store(bytes: bytes, in: &value, key: key, operation: operation)
    }
  }

  /// An integer as an int (range-checked), uint64 (negatives as 0), double, boolean or enum.
  private static func store(
    int number: Int, in value: inout GValue, fundamental: GType, key: String, operation: String
  ) throws(VipsError) {
    switch fundamental {
    case cvips_type_int():
      g_value_set_int(&value, try PixelCount.int32(number, "\(operation) \(key)"))
    case cvips_type_uint64(): g_value_set_uint64(&value, guint64(max(0, number)))
    case cvips_type_double(): g_value_set_double(&value, Double(number))
    case cvips_type_boolean(): g_value_set_boolean(&value, number != 0 ? 1 : 0)
    case cvips_type_enum():
      g_value_set_enum(&value, try PixelCount.int32(number, "\(operation) \(key)"))
    default: throw mismatch(key, operation: operation)
    }
  }

  /// A double as a double, or rounded as an int (range-checked).
  private static func store(
    double number: Double, in value: inout GValue, fundamental: GType, key: String,
    operation: String
  ) throws(VipsError) {
    switch fundamental {
    case cvips_type_double(): g_value_set_double(&value, number)
    case cvips_type_int():
      g_value_set_int(&value, try PixelCount.int32(rounding: number, "\(operation) \(key)"))
    default: throw mismatch(key, operation: operation)
    }
  }

  /// A text as an enum or flags value by nickname (libvips' error when it names none), or as
  /// a string.
  private static func store(
    string text: String, in value: inout GValue, type: GType, key: String, operation: String
  ) throws(VipsError) {
    switch g_type_fundamental(type) {
    case cvips_type_enum():
      let number = vips_enum_from_nick(operation, type, text)
      if number < 0 { throw VipsError.fromBuffer(context: operation) }
      g_value_set_enum(&value, number)
    case cvips_type_flags():
      let number = vips_flags_from_nick(operation, type, text)
      if number < 0 { throw VipsError.fromBuffer(context: operation) }
      g_value_set_flags(&value, UInt32(number))
    case cvips_type_string():
      g_value_set_string(&value, text)
    default: throw mismatch(key, operation: operation)
    }
  }

  /// An array of images, each referenced once more for the array.
  private static func store(
    images: [VipsImage], in value: inout GValue, key: String, operation: String
  ) throws(VipsError) {
    vips_value_set_array_image(&value, Int32(images.count))
    guard let slots = vips_value_get_array_image(&value, nil) else {
      throw mismatch(key, operation: operation)
    }
    for (index, image) in images.enumerated() {
      g_object_ref(image.pointer)
      slots[index] = image.pointer
    }
  }

  /// Bytes as a blob (copied; the value holds the only reference).
  private static func store(
    bytes: [UInt8], in value: inout GValue, key: String, operation: String
  ) throws(VipsError) {
    let blob = bytes.withUnsafeBytes { buffer in
      vips_blob_copy(buffer.baseAddress, buffer.count)
    }
    guard let blob else { throw mismatch(key, operation: operation) }
    g_value_set_boxed(&value, blob)
    vips_area_unref(UnsafeMutableRawPointer(blob).assumingMemoryBound(to: VipsArea.self))
  }
}

@inline(__always)
private func gobject(_ op: UnsafeMutablePointer<CVips.VipsOperation>) -> UnsafeMutablePointer<
  GObject
> {
  UnsafeMutableRawPointer(op).assumingMemoryBound(to: GObject.self)
}

@inline(__always)
private func vipsObject(_ op: UnsafeMutablePointer<CVips.VipsOperation>) -> UnsafeMutablePointer<
  VipsObject
> {
  UnsafeMutableRawPointer(op).assumingMemoryBound(to: VipsObject.self)
}
