#if canImport(CWebP)
import CWebP
import Foundation

/// A WebP file's `ICCP` chunk, through libwebp's demuxer, and writing one with its muxer.
enum WebPICCProfile {
    /// The profile in `data`'s `ICCP` chunk (announced by the VP8X flags); `nil` when there is
    /// none or it is not a readable ICC profile.
    static func profile(in data: Data) -> ICCProfile? {
        data.withUnsafeBytes { bytes -> ICCProfile? in
            guard let base = bytes.baseAddress else { return nil }
            var webp = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: bytes.count)
            guard let demux = WebPDemux(&webp) else { return nil }
            defer { WebPDemuxDelete(demux) }
            guard WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS) & ICCP_FLAG.rawValue != 0 else { return nil }
            var chunk = WebPChunkIterator()
            guard WebPDemuxGetChunk(demux, "ICCP", 1, &chunk) != 0 else { return nil }
            defer { WebPDemuxReleaseChunkIterator(&chunk) }
            guard let profile = chunk.chunk.bytes, chunk.chunk.size > 0 else { return nil }
            return ICCProfile(data: Data(bytes: profile, count: chunk.chunk.size))
        }
    }

    /// The still WebP `image` with `profile` added as an `ICCP` chunk (in an extended VP8X file).
    static func embedding(_ profile: ICCProfile, in image: Data) throws(ImageError) -> Data {
        guard let mux = WebPMuxNew() else { throw .encodingFailed(format: .webp, reason: "out of memory") }
        defer { WebPMuxDelete(mux) }
        let status: WebPMuxError = image.withUnsafeBytes { imageBytes in
            profile.data.withUnsafeBytes { profileBytes in
                var picture = WebPData(bytes: imageBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: imageBytes.count)
                var icc = WebPData(bytes: profileBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: profileBytes.count)
                let set = WebPMuxSetImage(mux, &picture, 1)
                guard set == WEBP_MUX_OK else { return set }
                return WebPMuxSetChunk(mux, "ICCP", &icc, 1)
            }
        }
        guard status == WEBP_MUX_OK else {
            throw .encodingFailed(format: .webp, reason: "libwebp's muxer could not add the ICC profile (status \(status.rawValue))")
        }
        var assembled = WebPData()
        guard WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK, let bytes = assembled.bytes else {
            throw .encodingFailed(format: .webp, reason: "libwebp's muxer could not assemble the file")
        }
        defer { WebPDataClear(&assembled) }
        return Data(bytes: bytes, count: assembled.size)
    }
}
#endif
