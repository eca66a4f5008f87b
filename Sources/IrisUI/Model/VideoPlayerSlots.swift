/// How many clips may have a player at once (``VideoPlayback``): a player holds a hardware video
/// decoder, and a device has few (AVFoundation fails players beyond them). A playback that can be
/// seen claims a slot; when none is free it shows its poster and waits, first come first served,
/// and gets the next slot let go. Players of clips out of sight are let go, so the slots go to
/// what can be seen.
@MainActor
public final class VideoPlayerSlots {
    /// The slots every view's playbacks share.
    public static let shared = VideoPlayerSlots(capacity: 8)

    /// The most players alive at once. Lowering it takes effect as players are let go.
    public var capacity: Int {
        didSet { grantWaiting() }
    }

    /// Playbacks holding a slot, held weakly (a playback that went away holds none).
    private var holders: [WeakPlayback] = []
    /// Playbacks waiting for a slot, in the order they asked.
    private var waiting: [WeakPlayback] = []

    /// Slots for at most `capacity` players at once.
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// How many players hold a slot now.
    public var playersAlive: Int {
        prune()
        return holders.count
    }

    /// A slot for `playback`: true if it holds one (already, or now); false if it waits.
    func claim(for playback: VideoPlayback) -> Bool {
        prune()
        if holders.contains(where: { $0.value === playback }) { return true }
        if holders.count < capacity, !waiting.contains(where: { $0.value !== playback }) {
            waiting.removeAll { $0.value === playback }
            holders.append(WeakPlayback(playback))
            return true
        }
        if !waiting.contains(where: { $0.value === playback }) { waiting.append(WeakPlayback(playback)) }
        return false
    }

    /// `playback` needs no slot now: its slot (or its place in the queue) goes, and the first
    /// playback waiting gets the slot.
    func release(_ playback: VideoPlayback) {
        waiting.removeAll { $0.value === playback }
        let count = holders.count
        holders.removeAll { $0.value === playback }
        if holders.count != count { grantWaiting() }
    }

    /// Offers free slots to the playbacks waiting, in order.
    private func grantWaiting() {
        prune()
        while holders.count < capacity, let next = waiting.first {
            waiting.removeFirst()
            guard let playback = next.value else { continue }
            holders.append(next)
            playback.slotDidFree()
        }
    }

    private func prune() {
        holders.removeAll { $0.value == nil }
        waiting.removeAll { $0.value == nil }
    }
}

/// A playback, held weakly.
private struct WeakPlayback {
    weak var value: VideoPlayback?
    init(_ value: VideoPlayback) { self.value = value }
}
