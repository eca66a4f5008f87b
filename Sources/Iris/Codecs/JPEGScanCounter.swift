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
    /// JPEG (so a preview would show more than the last one did).
    mutating func append(_ chunk: Data) -> Bool {
        var completed = false
        for byte in chunk {
            if isJPEG == nil, position == 1 { isJPEG = previousByte == 0xFF && byte == 0xD8 }
            if isJPEG == false { return false }
            if previousByte == 0xFF {
                switch byte {
                case 0xC2: isProgressive = true
                case 0xDA:
                    scansStarted += 1
                    if scansStarted > 1 && isProgressive { completed = true }
                default: break
                }
            }
            previousByte = byte
            position += 1
        }
        return completed
    }
}
