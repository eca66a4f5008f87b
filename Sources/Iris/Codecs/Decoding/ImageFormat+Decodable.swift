extension ImageFormat {
    /// Whether the platform's decoders (``ImageDecoderRegistry/standard``) read this format.
    public var isDecodable: Bool { ImageDecoderRegistry.standard.decoder(for: self) != nil }
}
