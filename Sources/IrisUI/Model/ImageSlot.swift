import Foundation
import Iris

/// The space a view offers its image, in points: what SwiftUI proposes to the view, or the
/// bounds of a UIKit/AppKit view. A side is `nil` when the offer leaves it open: unspecified,
/// infinite (along a scroll view's axis) or zero (not laid out).
///
/// The decode size comes from the slot, never from the content shown in it: a spinner or an
/// `EmptyView` placeholder measures nothing about the image, and `scaledToFill` content
/// overflows its frame. A closed slot is covered unless the view says to fit (``ImageModel/slotContentMode``).
public struct ImageSlot: Hashable, Sendable, CustomStringConvertible {
    /// The width offered, in points; `nil` when open.
    public let width: Double?
    /// The height offered, in points; `nil` when open.
    public let height: Double?

    /// A slot of `width` × `height` points; a side that is `nil`, not finite or not positive is
    /// open.
    public init(width: Double?, height: Double?) {
        self.width = Self.side(width)
        self.height = Self.side(height)
    }

    /// The slot a view measured at `size` stands for: zero sides are open (a SwiftUI view that
    /// marks the offered space measures an open side as zero; a UIKit view not sized by anything
    /// has zero bounds).
    public init(measured size: CGSize) {
        self.init(width: Double(size.width), height: Double(size.height))
    }

    /// Both sides open: the image shows at its natural size.
    public static let open = ImageSlot(width: nil, height: nil)

    /// Whether both sides are given.
    public var isClosed: Bool { width != nil && height != nil }

    /// "120×80 pt", with "open" for an open side.
    public var description: String {
        "\(width.map { "\($0)" } ?? "open")×\(height.map { "\($0)" } ?? "open") pt"
    }

    private static func side(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value > 0 else { return nil }
        return value
    }
}
