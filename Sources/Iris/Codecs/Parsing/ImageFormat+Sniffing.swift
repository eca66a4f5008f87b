import Foundation

extension ImageFormat {
    /// The format `data` is in, recognised from its first bytes (magic numbers, and for text
    /// the markup or JSON it starts with); ``ImageFormat/unknown`` when nothing matches.
    public init(sniffing data: Data) {
        self = FormatSniffer.format(of: data)
    }
}
