#if canImport(SwiftUI)
import SwiftUI

/// Lays out an ``IrisImage``: its content as a `ZStack` would (the view is as large as its
/// content, as `AsyncImage` is), plus, first, a clear marker sized to the space the view is
/// offered, with open sides (unspecified or infinite) as zero. The view measures the marker, not
/// the content, to choose the decode size (``ImageSlot``): a spinner, an `EmptyView` or
/// overflowing `scaledToFill` content says nothing about the slot. The marker is always there,
/// so the view appears (and loads) even when its content is empty.
struct ImageSlotLayout: Layout {
    func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
        subviews.dropFirst().reduce(CGSize.zero) { size, content in
            let fitted = content.sizeThatFits(proposal)
            return CGSize(width: max(size.width, fitted.width), height: max(size.height, fitted.height))
        }
    }

    func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {
        guard let marker = subviews.first else { return }
        marker.place(
            at: bounds.origin, anchor: .topLeading,
            proposal: ProposedViewSize(width: Self.offered(proposal.width), height: Self.offered(proposal.height)))
        for content in subviews.dropFirst() {
            content.place(at: CGPoint(x: bounds.midX, y: bounds.midY), anchor: .center, proposal: proposal)
        }
    }

    /// A side of the proposal as the marker takes it: open sides are zero.
    private static func offered(_ side: CGFloat?) -> CGFloat {
        guard let side, side.isFinite, side > 0 else { return 0 }
        return side
    }
}
#endif
