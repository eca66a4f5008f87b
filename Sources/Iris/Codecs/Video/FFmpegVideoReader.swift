#if canImport(CFFmpeg)
import CFFmpeg
import Foundation

/// One video opened with FFmpeg from memory: its best video stream, what its header says, and
/// its frames decoded in order and scaled by libswscale straight to the size asked for.
///
/// Not thread-safe: one decode (a header, a poster, a pass of frames) owns a reader.
final class FFmpegVideoReader {
    let format: ImageFormat
    private let input: FFmpegMemoryInput
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var container: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private(set) var frame: UnsafeMutablePointer<AVFrame>?
    /// A frame kept aside while the next ones are decoded (``holdFrame()``).
    private var heldFrame: UnsafeMutablePointer<AVFrame>?
    private var scaler: OpaquePointer?
    private let streamIndex: Int32
    private var draining = false
    /// How the decoder spreads its work over threads: set before the first frame (the decoder
    /// opens with it).
    var threading = VideoDecoderThreading.frames
    /// What the header says.
    let info: VideoInfo
    /// The stream's time base, seconds per timestamp unit.
    let timeBase: Double

    /// Opens `data` (already recognised as `format`): reads the container's header and the
    /// stream's parameters, no frame. Throws a typed error for a truncated or corrupt file, a
    /// file with no video stream, or a decode past `timeLimit`.
    init(data: Data, format: ImageFormat, timeLimit: Duration?) throws(ImageError) {
        _ = Self.quietLogs
        self.format = format
        input = FFmpegMemoryInput(data: data, timeLimit: timeLimit)
        var (openedIO, openedContainer) = try Self.open(input: input, data: data, format: format)
        // The best video stream (FFmpeg's choice: the default one, else the largest).
        let container = openedContainer!
        let index = av_find_best_stream(container, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard index >= 0, let stream = container.pointee.streams[Int(index)], let parameters = stream.pointee.codecpar else {
            Self.close(io: &openedIO, container: &openedContainer)
            throw Self.failure(format, "the file has no video stream")
        }
        io = openedIO
        self.container = openedContainer
        streamIndex = index
        let base = stream.pointee.time_base
        timeBase = base.den != 0 ? Double(base.num) / Double(base.den) : 0
        info = VideoInfo(stream: stream.pointee, parameters: parameters.pointee, container: container.pointee, timeBase: timeBase)
    }

    /// FFmpeg logs to standard error by default (codec banners, warnings about the input): Iris
    /// reports through its errors instead, so the library is silenced once.
    private static let quietLogs: Void = av_log_set_level(AV_LOG_QUIET)

    deinit {
        sws_freeContext(scaler)
        av_frame_free(&frame)
        av_frame_free(&heldFrame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        Self.close(io: &io, container: &container)
    }

    private static func open(
        input: FFmpegMemoryInput, data: Data, format: ImageFormat
    ) throws(ImageError)
        -> (UnsafeMutablePointer<AVIOContext>?, UnsafeMutablePointer<AVFormatContext>?)
    {
        var io = input.makeContext()
        guard io != nil, var container = avformat_alloc_context() else {
            avio_context_free(&io)
            throw failure(format, "FFmpeg could not allocate its reader")
        }
        container.pointee.pb = io
        container.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        container.pointee.interrupt_callback = input.interruptCallback
        // Only the demuxer of the container Iris recognised reads the bytes, never one FFmpeg's
        // probe would pick (bytes an outsider chose reach no other demuxer); the allow-list
        // refuses any other, should one be asked for.
        container.pointee.format_whitelist = Self.copiedForFFmpeg(Self.demuxers.joined(separator: ","))
        var maybeContainer: UnsafeMutablePointer<AVFormatContext>? = container
        var result = avformat_open_input(&maybeContainer, nil, av_find_input_format(Self.demuxer(for: format)), nil)
        if result >= 0, let opened = maybeContainer {
            container = opened
            // Probing decodes the first frames of every stream: needed only when the container's
            // header leaves the video's size or timing unsaid (MP4 and MOV say both).
            if needsProbing(container) { result = avformat_find_stream_info(container, nil) }
            if result >= 0 { return (io, container) }
            avformat_close_input(&maybeContainer)
        }
        // avformat_open_input frees the context when it fails; the I/O context is ours.
        Self.freeIO(&io)
        throw error(for: result, format: format, input: input, data: data, while: "reading the container")
    }

    /// FFmpeg's demuxers of the containers ``VideoContainer`` recognises: `mov` (MP4, MOV, 3GPP)
    /// and `matroska` (Matroska, WebM).
    static let demuxers = ["mov", "matroska"]

    /// The demuxer of `format`, as FFmpeg names it.
    static func demuxer(for format: ImageFormat) -> String {
        format == .webm || format == .matroska ? "matroska" : "mov"
    }

    /// `text` in memory of FFmpeg's allocator (a field FFmpeg frees with the context).
    private static func copiedForFFmpeg(_ text: String) -> UnsafeMutablePointer<CChar>? {
        let bytes = Array(text.utf8CString)
        guard let memory = av_malloc(bytes.count)?.assumingMemoryBound(to: CChar.self) else { return nil }
        memory.initialize(from: bytes, count: bytes.count)
        return memory
    }

    /// Whether no video stream has its size, codec and frame rate, and its frame count or
    /// duration (from which ``VideoDecoder`` estimates the count, as for WebM), from the
    /// container's header alone.
    private static func needsProbing(_ container: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        for index in 0..<Int(container.pointee.nb_streams) {
            guard let stream = container.pointee.streams[index], let parameters = stream.pointee.codecpar,
                parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO
            else { continue }
            let sized = parameters.pointee.width > 0 && parameters.pointee.height > 0 && parameters.pointee.codec_id != AV_CODEC_ID_NONE
            let rated = stream.pointee.avg_frame_rate.num > 0 && stream.pointee.avg_frame_rate.den > 0
            let counted = stream.pointee.nb_frames > 0 || stream.pointee.duration > 0 || container.pointee.duration > 0
            if sized && rated && counted { return false }
        }
        return true
    }

    private static func close(io: inout UnsafeMutablePointer<AVIOContext>?, container: inout UnsafeMutablePointer<AVFormatContext>?) {
        if container != nil { avformat_close_input(&container) }
        freeIO(&io)
    }

    private static func freeIO(_ io: inout UnsafeMutablePointer<AVIOContext>?) {
        guard let context = io else { return }
        // FFmpeg may have replaced the buffer it was given: free the one the context holds now.
        var buffer: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(context.pointee.buffer)
        av_freep(&buffer)
        avio_context_free(&io)
    }

    static func failure(_ format: ImageFormat, _ reason: String) -> ImageError {
        .decodingFailed(format: format, reason: reason)
    }

    /// The typed error for an FFmpeg failure: the deadline, a file shorter than its own
    /// structure says, or FFmpeg's reason.
    private static func error(
        for code: Int32, format: ImageFormat, input: FFmpegMemoryInput, data: Data?, while action: String
    ) -> ImageError {
        if input.interrupted || code == FFmpegError.exit, let limit = input.timeLimit {
            return .overLimit(.decodingTime(limit: limit))
        }
        if let data, let declared = VideoContainer.declaredLengthBeyond(data) {
            return .truncated(format: format, received: data.count, expected: declared)
        }
        return failure(format, "FFmpeg failed \(action): \(FFmpegError.message(code))")
    }

    private func error(for code: Int32, while action: String) -> ImageError {
        Self.error(for: code, format: format, input: input, data: nil, while: action)
    }

    /// Starts the time limit again from now.
    func restartTimeLimit() { input.restartTimeLimit() }

    /// Opens the stream's decoder (once), before the first frame.
    private func openDecoder() throws(ImageError) {
        guard codec == nil else { return }
        guard let container, let stream = container.pointee.streams[Int(streamIndex)], let parameters = stream.pointee.codecpar else {
            throw Self.failure(format, "the video stream went away")
        }
        guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw Self.failure(format, "FFmpeg has no decoder for the \(info.codecName) video stream")
        }
        codec = avcodec_alloc_context3(decoder)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard let codec, packet != nil, frame != nil else { throw Self.failure(format, "FFmpeg could not allocate its decoder") }
        var result = avcodec_parameters_to_context(codec, parameters)
        guard result >= 0 else { throw error(for: result, while: "reading the stream's parameters") }
        codec.pointee.pkt_timebase = stream.pointee.time_base
        // FFmpeg's threads (one per core), of the kind ``threading`` says.
        codec.pointee.thread_count = 0
        codec.pointee.thread_type = threading.ffmpegThreadType
        result = avcodec_open2(codec, decoder, nil)
        guard result >= 0 else { throw error(for: result, while: "opening the \(info.codecName) decoder") }
    }

    /// Decodes the stream's first frame alone into ``frame``: the first packet the decoder
    /// takes, then the decoder drained, so that no frame after it is decoded. A decoder that
    /// reorders frames (H.264 and HEVC with B-frames) otherwise gives the first one only once
    /// it has decoded as many frames past it as it may reorder. `false` when that packet gives
    /// no frame (a stream that starts with frames that need earlier ones). Either way the
    /// decoder is then drained: ``seek(toSeconds:)`` before decoding on.
    func decodeFirstFrame() throws(ImageError) -> Bool {
        try openDecoder()
        guard let codec, let packet, let frame, let container else { return false }
        while !draining {
            if input.isPastDeadline, let limit = input.timeLimit { throw .overLimit(.decodingTime(limit: limit)) }
            let read = av_read_frame(container, packet)
            guard read >= 0 else {
                guard read == FFmpegError.eof else { throw error(for: read, while: "reading a packet") }
                break
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let sent = avcodec_send_packet(codec, packet)
            if sent == FFmpegError.invalidData { continue }
            guard sent >= 0 else { throw error(for: sent, while: "decoding a packet") }
            break
        }
        draining = true
        _ = avcodec_send_packet(codec, nil)
        let received = avcodec_receive_frame(codec, frame)
        if received == 0 { return true }
        guard received == FFmpegError.eof || received == FFmpegError.again else { throw error(for: received, while: "decoding a frame") }
        return false
    }

    /// Decodes the next frame in presentation order into ``frame``; `false` at the end of the
    /// stream. Throws when the deadline passes, or the data is corrupt or ends early.
    func decodeNextFrame() throws(ImageError) -> Bool {
        try openDecoder()
        guard let codec, let packet, let frame, let container else { return false }
        while true {
            if input.isPastDeadline, let limit = input.timeLimit { throw .overLimit(.decodingTime(limit: limit)) }
            let received = avcodec_receive_frame(codec, frame)
            if received == 0 { return true }
            if received == FFmpegError.eof { return false }
            guard received == FFmpegError.again else { throw error(for: received, while: "decoding a frame") }
            if draining { return false }
            let read = av_read_frame(container, packet)
            if read < 0 {
                guard read == FFmpegError.eof else { throw error(for: read, while: "reading a packet") }
                // The end: flush the decoder for the frames it still holds.
                draining = true
                _ = avcodec_send_packet(codec, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let sent = avcodec_send_packet(codec, packet)
            if sent < 0 && sent != FFmpegError.again && sent != FFmpegError.invalidData {
                throw error(for: sent, while: "decoding a packet")
            }
        }
    }

    /// The presentation time of ``frame``, in seconds from the stream's start.
    var frameSeconds: Double? {
        guard let frame else { return nil }
        let timestamp = frame.pointee.best_effort_timestamp
        guard timestamp != Int64.min else { return nil }  // AV_NOPTS_VALUE
        return Double(timestamp - max(0, info.startTimestamp)) * timeBase
    }

    /// Goes back to the key frame at or before `seconds` (from the stream's start), so that the
    /// next frames decoded lead up to it.
    func seek(toSeconds seconds: Double) throws(ImageError) {
        try openDecoder()
        guard let container, let codec, timeBase > 0 else { return }
        let timestamp = Int64((max(0, seconds) / timeBase).rounded(.down)) + max(0, info.startTimestamp)
        let result = av_seek_frame(container, streamIndex, timestamp, AVSEEK_FLAG_BACKWARD)
        guard result >= 0 else { throw error(for: result, while: "seeking") }
        avcodec_flush_buffers(codec)
        draining = false
    }

    /// Walks the stream's packets without decoding them: one entry per frame, for frame
    /// counts, durations and key frames. Stops past `maxFrames` (the caller's limit) and
    /// rewinds to the start.
    func indexFrames(maxFrames: Int) throws(ImageError) -> [VideoFrameEntry] {
        guard let container else { return [] }
        var entries: [VideoFrameEntry] = []
        guard let indexPacket = av_packet_alloc() else { throw Self.failure(format, "FFmpeg could not allocate a packet") }
        defer {
            var optional: UnsafeMutablePointer<AVPacket>? = indexPacket
            av_packet_free(&optional)
        }
        while entries.count <= maxFrames {
            if input.isPastDeadline, let limit = input.timeLimit { throw .overLimit(.decodingTime(limit: limit)) }
            let read = av_read_frame(container, indexPacket)
            if read == FFmpegError.eof { break }
            guard read >= 0 else { throw error(for: read, while: "reading a packet") }
            if indexPacket.pointee.stream_index == streamIndex {
                let pts = indexPacket.pointee.pts != Int64.min ? indexPacket.pointee.pts : indexPacket.pointee.dts
                entries.append(
                    VideoFrameEntry(
                        timestamp: pts, duration: indexPacket.pointee.duration,
                        isKey: indexPacket.pointee.flags & AV_PKT_FLAG_KEY != 0))
            }
            av_packet_unref(indexPacket)
        }
        // Back to the start for the frames.
        let rewound = avformat_seek_file(
            container, streamIndex, Int64.min, max(0, info.startTimestamp), max(0, info.startTimestamp),
            AVSEEK_FLAG_BACKWARD)
        if rewound < 0 {
            let seekResult = av_seek_frame(container, streamIndex, 0, AVSEEK_FLAG_BACKWARD | AVSEEK_FLAG_BYTE)
            guard seekResult >= 0 else { throw error(for: seekResult, while: "rewinding") }
        }
        return VideoFrameEntry.inPresentationOrder(entries)
    }

    /// Keeps the frame just decoded aside (replacing the one kept before), so that it can be
    /// scaled after the next frames are decoded.
    func holdFrame() {
        guard let frame else { return }
        if heldFrame == nil { heldFrame = av_frame_alloc() }
        guard let heldFrame else { return }
        av_frame_unref(heldFrame)
        av_frame_move_ref(heldFrame, frame)
    }

    /// The frame just decoded (or the one held aside) scaled to `output` (stored orientation)
    /// as opaque RGBX.
    func scaledFrame(to output: PixelSize, held: Bool = false) throws(ImageError) -> Bitmap {
        guard let frame = held ? heldFrame : frame, frame.pointee.width > 0 else { throw Self.failure(format, "no frame was decoded") }
        let sourceWidth = frame.pointee.width, sourceHeight = frame.pointee.height
        guard sourceWidth > 0, sourceHeight > 0 else {
            throw .invalidDimensions(format: format, width: Int(sourceWidth), height: Int(sourceHeight))
        }
        let shrinking = Int(sourceWidth) * Int(sourceHeight) >= output.pixelCount
        scaler = sws_getCachedContext(
            scaler, sourceWidth, sourceHeight, AVPixelFormat(rawValue: frame.pointee.format),
            Int32(output.width), Int32(output.height), AV_PIX_FMT_RGBA,
            shrinking ? SWS_AREA : SWS_BICUBIC, nil, nil, nil)
        guard let scaler else {
            throw Self.failure(format, "libswscale cannot convert \(Self.pixelFormatName(frame.pointee.format)) frames")
        }
        // The frame's own matrix and range (BT.709 for HD, limited range), not the default BT.601.
        let space = frame.pointee.colorspace.rawValue
        let matrix = sws_getCoefficients(
            space == AVCOL_SPC_UNSPECIFIED.rawValue ? (Int(sourceHeight) >= 720 ? SWS_CS_ITU709 : SWS_CS_DEFAULT) : Int32(space))
        let fullRange: Int32 = frame.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        _ = sws_setColorspaceDetails(scaler, matrix, fullRange, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        var failed = false
        let bitmap = Bitmap(width: output.width, height: output.height, format: .rgbx8) { buffer in
            var destination: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
            var strides: [Int32] = [Int32(output.width * 4), 0, 0, 0]
            let rows = withUnsafePointer(to: &frame.pointee.data) { planes in
                planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                    withUnsafePointer(to: &frame.pointee.linesize) { lines in
                        lines.withMemoryRebound(to: Int32.self, capacity: 8) { lines in
                            sws_scale(scaler, planes, lines, 0, sourceHeight, &destination, &strides)
                        }
                    }
                }
            }
            failed = rows != Int32(output.height)
        }
        if failed { throw Self.failure(format, "libswscale could not scale the frame to \(output)") }
        return bitmap
    }

    private static func pixelFormatName(_ format: Int32) -> String {
        av_get_pix_fmt_name(AVPixelFormat(rawValue: format)).map { String(cString: $0) } ?? "pixel format \(format)"
    }
}

/// How FFmpeg's decoder uses its threads.
enum VideoDecoderThreading {
    /// Each thread decodes a frame of its own: the most throughput over many frames (a pass of
    /// frames, a frame at a time that decodes every frame from the key frame before it), but a
    /// frame comes out only once as many frames as threads were sent, so the first frame costs
    /// that many decodes, each with its own buffers.
    case frames
    /// The threads share one frame's slices, tiles or wavefront rows (H.264 slices, HEVC WPP,
    /// VP9 and AV1 tiles; one thread where the stream has none): a frame comes out as soon as it
    /// is decoded, which is what a poster from the first frames wants.
    case slices

    /// FFmpeg's `thread_type` flags.
    var ffmpegThreadType: Int32 {
        switch self {
        case .frames: FF_THREAD_FRAME
        case .slices: FF_THREAD_SLICE
        }
    }
}

/// One frame's packet, as the index walk found it.
struct VideoFrameEntry: Sendable, Equatable {
    /// Presentation timestamp in the stream's time base.
    var timestamp: Int64
    /// Duration in the stream's time base (0 when the container does not say).
    var duration: Int64
    /// Whether the frame decodes without the ones before it.
    var isKey: Bool

    /// Entries sorted by presentation time (packets come in decoding order; B-frames differ).
    static func inPresentationOrder(_ entries: [VideoFrameEntry]) -> [VideoFrameEntry] {
        entries.sorted { $0.timestamp < $1.timestamp }
    }
}
#endif
