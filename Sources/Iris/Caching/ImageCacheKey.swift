/// Identifies a decoded, processed image in a memory cache: source + target + orientation +
/// processors. Made by ``ImagePipeline/imageKey(for:)``.
public struct ImageCacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The source's data key (see ``ImagePipeline/dataKey(for:)``).
    public var dataKey: String
    /// The size, in pixels, and content mode the image was decoded at; `nil`: full size.
    public var target: DecodeTarget?
    /// Whether orientation was left as stored.
    public var skipsOrientation: Bool
    /// Identifiers of the processors, in order.
    public var processors: [String]

    /// Makes a key; the pipeline makes its own with ``ImagePipeline/imageKey(for:)``.
    public init(dataKey: String, target: DecodeTarget? = nil, skipsOrientation: Bool = false, processors: [String] = []) {
        self.dataKey = dataKey
        self.target = target
        self.skipsOrientation = skipsOrientation
        self.processors = processors
    }

    public var description: String {
        var text = dataKey
        if let target { text += " @\(target)" }
        if skipsOrientation { text += " unoriented" }
        if !processors.isEmpty { text += " | " + processors.joined(separator: " | ") }
        return text
    }
}
