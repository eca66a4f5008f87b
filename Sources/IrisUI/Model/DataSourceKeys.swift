import Foundation
import Iris

/// The cache keys of the `.data` sources one image view shows (`IrisImage(id:cacheKey:load:)`).
///
/// Two decisions are kept apart, as `.task(id:)`, Nuke's `ImageRequest(id:data:)` and
/// Kingfisher's `cacheKey` keep them:
/// - the **id** says when the view loads again: any `Equatable` value; a new value (or a value of
///   another type) loads again;
/// - the **cache key** says which views share an image (coalescing, the memory and disk caches).
///   With one, every view and request giving that key shares the image, whatever its id. Without
///   one, a view's images are its own: the key is private to the view and changes with the id,
///   so no other view is ever handed its bytes (two views whose ids print alike, or a class id
///   that prints only its type name, never see each other's images).
public struct DataSourceKeys: Sendable {
    /// What private keys of this view start with; made on first use.
    private var owner: String?
    /// The id of the current private key, and the key's number.
    private var current: (id: any Equatable & Sendable, serial: Int)?

    /// Makes keys for one view.
    public init() {}

    /// The key of the source with reload id `id` and, if any, the shared `cacheKey`: the cache
    /// key itself when given, else a key private to this view that stays the same while `id`
    /// does.
    public mutating func key(id: some Equatable & Sendable, cacheKey: String?) -> String {
        if let cacheKey { return cacheKey }
        let owner = owner ?? "\u{1}iris.view.\(UUID().uuidString)"
        self.owner = owner
        if let current, Self.same(current.id, id) { return "\(owner).\(current.serial)" }
        let serial = (current?.serial ?? 0) + 1
        current = (id, serial)
        return "\(owner).\(serial)"
    }

    /// Whether `lhs` and `rhs` are equal values of one type.
    static func same(_ lhs: any Equatable, _ rhs: any Equatable) -> Bool {
        func equals<T: Equatable>(_ lhs: T) -> Bool { (rhs as? T) == lhs }
        return equals(lhs)
    }
}
