#if canImport(SwiftUI)
import Foundation
import Iris
import SwiftUI

// The initialisers of `AsyncImage`, with the same labels, and those only Iris has.

extension IrisImage {
    /// Shows the image at `url` at its natural size (`scale` pixels per point), a grey
    /// placeholder until it is there: as `AsyncImage(url:scale:)`. `label` names the image for
    /// VoiceOver (without one it is read as an image, and `.accessibilityLabel` names it).
    public init(url: URL?, scale: CGFloat = 1, label: Text? = nil) where Content == IrisImageDefaultContent {
        self.init(loading: .natural(url.map { ImageRequest(url: $0, scale: Double(scale)) }), transaction: Transaction()) {
            IrisImageDefaultContent(phase: $0, label: label)
        }
    }

    /// Shows the image at `url` through `content`, `placeholder` until it is there: as
    /// `AsyncImage(url:scale:content:placeholder:)`. Decoded to cover the space the view is
    /// offered × the display scale (its natural size when no size is offered); `content` gets
    /// the image at its natural point size at `scale`, named `label` for VoiceOver when given.
    public init<I: View, P: View>(
        url: URL?, scale: CGFloat = 1, label: Text? = nil,
        @ViewBuilder content: @escaping (Image) -> I,
        @ViewBuilder placeholder: @escaping () -> P
    ) where Content == _ConditionalContent<I, P> {
        self.init(loading: .sizedToView(url.map { ImageRequest(url: $0, scale: Double(scale)) }), transaction: Transaction()) {
            Self.imageOrPlaceholder($0, label, content, placeholder)
        }
    }

    /// Shows the image at `url` through `content`, which gets the ``ImagePhase``; phase changes
    /// are animated with `transaction` (except a memory-cache hit): as
    /// `AsyncImage(url:scale:transaction:content:)`. Decoded for the space the view is offered.
    public init(
        url: URL?, scale: CGFloat = 1, transaction: Transaction = Transaction(),
        @ViewBuilder content: @escaping (ImagePhase) -> Content
    ) {
        self.init(
            loading: .sizedToView(url.map { ImageRequest(url: $0, scale: Double(scale)) }),
            transaction: transaction, content: content)
    }

    /// Shows `request` (any source, processors, cache policy) through `content`. Without a target
    /// size the request is decoded for the space the view is offered × the display scale.
    public init(
        request: ImageRequest?, transaction: Transaction = Transaction(),
        @ViewBuilder content: @escaping (ImagePhase) -> Content
    ) {
        self.init(loading: .sizedToView(request), transaction: transaction, content: content)
    }

    /// Shows the image whose encoded bytes `load` returns. A new `id` (any `Equatable` value, as
    /// `.task(id:)` takes) loads again. `cacheKey` decides sharing: views and requests with the
    /// same key share one image (coalesced, cached); without one, views made at this same place
    /// in the code (`fileID`, `line`, `column`: leave them to the compiler) with equal `Hashable`
    /// ids share it, so a `List` row made again finds its image in memory, and no other view is
    /// ever handed it (an id that is only `Equatable` keeps the image this view's own). Pass a
    /// `cacheKey` when one line of code shows ids of different kinds (a view type wrapping
    /// `IrisImage` for posts and for authors). `targetSize` is in points; `nil` decodes for the
    /// view's slot. `label` names the image for VoiceOver.
    public init<ID: Equatable & Sendable, I: View, P: View>(
        id: ID, cacheKey: String? = nil, targetSize: CGSize? = nil, label: Text? = nil,
        fileID: String = #fileID, line: Int = #line, column: Int = #column,
        load: @escaping @Sendable () async throws -> Data,
        @ViewBuilder content: @escaping (Image) -> I,
        @ViewBuilder placeholder: @escaping () -> P
    ) where Content == _ConditionalContent<I, P> {
        let place = ViewPlace(fileID: fileID, line: line, column: column)
        self.init(
            loading: .data(id: id, cacheKey: cacheKey, targetSize: targetSize, place: place, load: load),
            transaction: Transaction()
        ) {
            Self.imageOrPlaceholder($0, label, content, placeholder)
        }
        options.scalesTargetToDisplay = true
    }

    /// Shows the image whose encoded bytes `load` returns through `content`, which gets the
    /// phase; a new `id` loads again, `cacheKey` shares, the place scopes the id (as above).
    /// `targetSize` is in points; `nil` decodes for the view's slot.
    public init<ID: Equatable & Sendable>(
        id: ID, cacheKey: String? = nil, targetSize: CGSize? = nil,
        fileID: String = #fileID, line: Int = #line, column: Int = #column,
        load: @escaping @Sendable () async throws -> Data,
        transaction: Transaction = Transaction(),
        @ViewBuilder content: @escaping (ImagePhase) -> Content
    ) {
        let place = ViewPlace(fileID: fileID, line: line, column: column)
        self.init(
            loading: .data(id: id, cacheKey: cacheKey, targetSize: targetSize, place: place, load: load),
            transaction: transaction, content: content)
        options.scalesTargetToDisplay = true
    }

    /// Shows `model`, which something else owns and loads (several views may share it): this
    /// view never loads, cancels or resizes it.
    public init(
        model: ImageModel, transaction: Transaction = Transaction(),
        @ViewBuilder content: @escaping (ImagePhase) -> Content
    ) {
        self.init(loading: .shared(model), transaction: transaction, content: content)
    }

    @ViewBuilder
    private static func imageOrPlaceholder<I: View, P: View>(
        _ phase: ImagePhase, _ label: Text?, _ content: (Image) -> I, _ placeholder: () -> P
    ) -> _ConditionalContent<I, P> {
        if let image = label.flatMap({ phase.image(label: $0) }) ?? phase.image {
            content(image)
        } else {
            placeholder()
        }
    }
}

/// What ``IrisImage/init(url:scale:)`` shows: the image at its natural size (a video's clip
/// playing over its poster), or a grey box.
public struct IrisImageDefaultContent: View {
    let phase: ImagePhase
    let label: Text?

    /// The image, or a grey box until there is one.
    public var body: some View {
        if let image = label.flatMap({ phase.image(label: $0) }) ?? phase.image {
            image.playsVideo()
        } else {
            Color.secondary.opacity(0.2)
        }
    }
}
#endif
