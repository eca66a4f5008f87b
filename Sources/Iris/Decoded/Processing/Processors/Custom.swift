extension ImageProcessors {
    /// A processor from a closure. The identifier must change whenever the closure's effect does.
    public struct Custom: ImageProcessing {
        /// What the memory cache key records of this processor.
        public let identifier: String
        private let body: @Sendable (LoadedImage) throws -> LoadedImage

        /// Makes a processor named `identifier` that runs `body`.
        public init(identifier: String, _ body: @escaping @Sendable (LoadedImage) throws -> LoadedImage) {
            self.identifier = identifier
            self.body = body
        }

        /// Runs the closure. This is the one place where an error of any type becomes an
        /// ``ImageError``: an ``ImageError`` is rethrown as it is, anything else becomes
        /// ``ImageError/processingFailed(processor:reason:)`` with this processor's identifier.
        /// Returns the processed image (an animation: every frame).
        public func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
            do {
                return try body(image)
            } catch let error as ImageError {
                throw error
            } catch {
                throw .processingFailed(processor: identifier, reason: String(describing: error))
            }
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Custom {
    /// A processor from a closure; see ``ImageProcessors/Custom``.
    public static func custom(_ identifier: String, _ body: @escaping @Sendable (LoadedImage) throws -> LoadedImage) -> Self {
        ImageProcessors.Custom(identifier: identifier, body)
    }
}
