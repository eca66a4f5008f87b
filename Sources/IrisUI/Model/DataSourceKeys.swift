import Foundation
import Iris

/// Where in an app's code an image view is made (its file, line and column): the namespace of
/// the ids of the `.data` sources it shows.
public struct ViewPlace: Hashable, Sendable, CustomStringConvertible {
    /// The file, as `#fileID` gives it.
    public let fileID: String
    /// The line.
    public let line: Int
    /// The column.
    public let column: Int

    /// The place given by `#fileID`, `#line` and `#column` at the caller.
    public init(fileID: String = #fileID, line: Int = #line, column: Int = #column) {
        self.fileID = fileID
        self.line = line
        self.column = column
    }

    /// "File.swift:12:8".
    public var description: String { "\(fileID):\(line):\(column)" }
}

/// The cache keys of the `.data` sources one image view shows (`IrisImage(id:cacheKey:load:)`).
///
/// Two decisions are kept apart, as `.task(id:)`, Nuke's `ImageRequest(id:data:)` and
/// Kingfisher's `cacheKey` keep them:
/// - the **id** says when the view loads again: any `Equatable` value; a new value (or a value of
///   another type) loads again;
/// - the **cache key** says which views share an image (coalescing, the memory and disk caches).
///   With one, every view and request giving that key shares the image, whatever its id.
///   Without one, the image is shared only by views made **at the same place in the code**
///   (``ViewPlace``) with an equal `Hashable` id: the row of a `List` made again after scrolling,
///   or a screen pushed again, finds its image in memory without calling the closure, while an
///   id of another place (a post's `7` and an author's `7`) or another type never shares it.
///   Equality is the id's own `==` and hash, never its description, so two class instances that
///   print alike stay apart.
/// - An id that is only `Equatable` (not `Hashable`) cannot be looked up: its key is private to
///   the view, and the view removes what it cached under it when the id changes or the view
///   goes, so dead keys never crowd the shared caches (``isPrivate``).
struct DataSourceKeys {
    /// A source's key and whether it is private to this view.
    struct Key: Equatable {
        /// The cache key.
        var string: String
        /// Whether only this view uses the key (its entries are removed when it is replaced).
        var isPrivate: Bool
    }

    /// What private keys of this view start with; made on first use.
    private var owner: String?
    /// The id of the current private key, and the key's number.
    private var current: (id: any Equatable & Sendable, serial: Int)?

    /// The key of the source with reload id `id` shown by a view made at `place`, and, if any,
    /// the shared `cacheKey` (see the type's summary).
    @MainActor
    mutating func key(id: some Equatable & Sendable, cacheKey: String?, place: ViewPlace?) -> Key {
        if let cacheKey { return Key(string: cacheKey, isPrivate: false) }
        if let place, let hashable = id as? any Hashable {
            return Key(string: PlaceKeyRegistry.shared.key(place: place, id: hashable), isPrivate: false)
        }
        let owner = owner ?? "\u{1}iris.view.\(UUID().uuidString)"
        self.owner = owner
        if let current, Self.same(current.id, id) { return Key(string: "\(owner).\(current.serial)", isPrivate: true) }
        let serial = (current?.serial ?? 0) + 1
        current = (id, serial)
        return Key(string: "\(owner).\(serial)", isPrivate: true)
    }

    /// Whether `lhs` and `rhs` are equal values of one type.
    static func same(_ lhs: any Equatable, _ rhs: any Equatable) -> Bool {
        func equals<T: Equatable>(_ lhs: T) -> Bool { (rhs as? T) == lhs }
        return equals(lhs)
    }
}

/// The keys of (place, id) pairs, shared by every view: made once per pair, never reused for
/// another pair (a number that only grows is part of each key), and forgotten all at once when
/// there are too many (a forgotten pair gets a new key: one miss, never a wrong image).
@MainActor
final class PlaceKeyRegistry {
    static let shared = PlaceKeyRegistry(limit: 20_000)

    /// A place and an id; the id is `Sendable` by the initialisers' constraint.
    private struct PlacedID: Hashable, @unchecked Sendable {
        let place: ViewPlace
        let id: AnyHashable
    }

    private let limit: Int
    private var keys: [PlacedID: String] = [:]
    private var next = 0

    init(limit: Int) { self.limit = limit }

    /// The key of `id` at `place`.
    func key(place: ViewPlace, id: any Hashable) -> String {
        let placed = PlacedID(place: place, id: AnyHashable(id))
        if let key = keys[placed] { return key }
        if keys.count >= limit { keys.removeAll(keepingCapacity: true) }
        next += 1
        let key = "\u{1}iris.place.\(place).\(next)"
        keys[placed] = key
        return key
    }

    /// How many pairs are known.
    var count: Int { keys.count }
}
