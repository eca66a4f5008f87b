#if canImport(CFFmpeg)
import CFFmpeg

extension VideoInfo {
    /// What FFmpeg read from the container and the stream's parameters.
    init(stream: AVStream, parameters: AVCodecParameters, container: AVFormatContext, timeBase: Double) {
        storedSize = PixelSize(width: Int(parameters.width), height: Int(parameters.height))
        var matrixSize = 0
        var rotation = 0.0
        var stream = stream
        if let matrix = av_stream_get_side_data(&stream, AV_PKT_DATA_DISPLAYMATRIX, &matrixSize), matrixSize >= 36 {
            rotation = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        }
        orientation = Self.orientation(displayRotation: rotation)
        if stream.duration > 0, timeBase > 0 {
            duration = Double(stream.duration) * timeBase
        } else if container.duration > 0 {
            duration = Double(container.duration) / Double(AV_TIME_BASE)
        }
        let rate = stream.avg_frame_rate.den != 0 ? stream.avg_frame_rate : stream.r_frame_rate
        frameRate = rate.den != 0 && rate.num > 0 ? Double(rate.num) / Double(rate.den) : nil
        frameCount = stream.nb_frames > 0 ? Int(stream.nb_frames) : nil
        codecName = avcodec_get_name(parameters.codec_id).map { String(cString: $0) } ?? "unknown"
        startTimestamp = stream.start_time != Int64.min ? stream.start_time : 0
    }
}
#endif
