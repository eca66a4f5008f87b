/// How an image is fitted to a target size.
public enum ContentMode: String, Sendable, Hashable, CaseIterable {
    /// The whole image fits inside the target; one side may be shorter.
    case fit
    /// The image covers the target; one side may be longer. Nothing is cropped.
    case fill
}
