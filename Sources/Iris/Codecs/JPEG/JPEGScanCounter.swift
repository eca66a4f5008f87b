import Foundation

/// Watches a JPEG arrive chunk by chunk and says when another scan has completed, so that a
/// progressive JPEG can be previewed after each of its scans.
///
/// A scan is complete when the next marker segment begins; the counter looks for Start-of-Scan
/// markers (FF DA) and counts a scan done at every SOS after the first (the last scan ends with
/// the image, which the final decode shows).
/// Inside entropy-coded data FF is always followed by 00 or a restart marker, so an FF DA found
/// there is a real marker. A baseline JPEG has one scan, so it never offers a preview. (An EXIF
/// thumbnail's markers inside APP1 are counted too; at worst that offers one early preview.)
struct JPEGScanCounter {
    /// Scans begun so far.
    private(set) var scansStarted = 0
    /// Whether the data is a progressive JPEG (SOF2), once the frame header has arrived.
    private(set) var isProgressive = false
    private var isJPEG: Bool?
    private var previousByte: UInt8 = 0
    private var position = 0

    /// Feeds the next chunk; returns true when it completed at least one scan of a progressive
    /// JPEG (so a preview would show more than the last one did). Only the byte after each FF
    /// matters, so the bytes between are skipped with `memchr`.
    mutating func append(_ chunk: Data) -> Bool {
        var completed = false
        chunk.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            let count = raw.count
            var index = 0
            // The stream's first two bytes say whether it is a JPEG at all.
            while isJPEG == nil, index < count {
                if position == 1 { isJPEG = previousByte == 0xFF && base[index] == 0xD8 }
                previousByte = base[index]
                position += 1
                index += 1
            }
            guard isJPEG == true else { return }
            position += count - index
            while index < count {
                let byte = base[index]
                if previousByte == 0xFF { noteMarker(byte, completed: &completed) }
                previousByte = byte
                index += 1
                guard byte != 0xFF, index < count else { continue }
                guard let next = memchr(base + index, 0xFF, count - index) else { break }
                let nextIndex = UnsafePointer<UInt8>(next.assumingMemoryBound(to: UInt8.self)) - base
                if nextIndex > index { previousByte = 0 }  // the skipped bytes hold no FF
                index = nextIndex
            }
        }
        return completed
    }

    private mutating func noteMarker(_ code: UInt8, completed: inout Bool) {
        switch code {
        case 0xC2: isProgressive = true
        case 0xDA:
            scansStarted += 1
            if scansStarted > 1 && isProgressive { completed = true }
        default: break
        }
    }
}
