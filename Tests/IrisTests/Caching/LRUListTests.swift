import Testing
@testable import Iris
import IrisSamples

/// `LRUList` against a plain array kept in recency order: after every step of a seeded run of
/// inserts, replacements, touches, reads and removals (from the middle, the ends, the least
/// recent), both agree on the order, the values and the total cost. Removal moves the last
/// slot into the freed one, so this is what proves the links and the key map follow the move.
@Suite("LRU list")
struct LRUListTests {
    /// The reference: (key, value, cost), most recent first.
    private struct Model {
        var items: [(key: Int, value: String, cost: Int)] = []

        mutating func set(_ key: Int, _ value: String, cost: Int) -> String? {
            let old = remove(key)?.value
            items.insert((key, value, cost), at: 0)
            return old
        }

        mutating func touch(_ key: Int) -> String? {
            guard let index = items.firstIndex(where: { $0.key == key }) else { return nil }
            let item = items.remove(at: index)
            items.insert(item, at: 0)
            return item.value
        }

        mutating func remove(_ key: Int) -> (value: String, cost: Int)? {
            guard let index = items.firstIndex(where: { $0.key == key }) else { return nil }
            let item = items.remove(at: index)
            return (item.value, item.cost)
        }
    }

    @Test("agrees with a reference list through 20,000 random operations", arguments: [1, 2, 3] as [UInt64])
    func agreesWithReference(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var list = LRUList<Int, String>()
        var model = Model()
        for step in 0..<20_000 {
            let key = Int.random(in: 0..<40, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0...3:
                let cost = Int.random(in: 1...100, using: &random)
                let replaced = list.set("v\(step)", cost: cost, for: key)
                #expect(replaced == model.set(key, "v\(step)", cost: cost))
            case 4, 5:
                #expect(list.value(for: key) == model.touch(key))
            case 6:
                #expect(list.touch(key) == (model.touch(key) != nil))
            case 7:
                #expect(list.peek(key) == model.items.first(where: { $0.key == key })?.value)
            case 8:
                let removed = list.remove(key)
                let expected = model.remove(key)
                #expect(removed?.value == expected?.value && removed?.cost == expected?.cost)
            default:
                let removed = list.removeLeastRecent()
                let expected = model.items.popLast()
                #expect(removed?.key == expected?.key && removed?.value == expected?.value)
            }
            guard list.keysByRecency == model.items.map(\.key),
                list.totalCost == model.items.reduce(0, { $0 + $1.cost }),
                list.leastRecentKey == model.items.last?.key
            else {
                Issue.record("seed \(seed), step \(step): list and reference differ")
                return
            }
        }
        let values = list.removeAll()
        #expect(values.count == model.items.count)
        #expect(list.isEmpty && list.totalCost == 0 && list.keysByRecency.isEmpty)
    }
}
