// iris-video-poster: reads a video (MP4, MOV, WebM, Matroska) from standard input, writes its
// poster (the first frame that is not black) as a PNG to standard output. The image service
// runs it as a child process, so that a crash inside FFmpeg's demuxers or decoders, on bytes an
// outsider chose, ends this process and costs one request, never the service.
//
// Arguments: --width W --height H [--fill] (the decode target; 0 for none), --max-pixels N,
// --max-seconds S (the video's length), --max-bytes N (of the input), --memory-bytes N
// (address space), --cpu-seconds N. Before reading anything it lowers its own limits: address
// space, CPU time, no core file. FFmpeg reads from memory only (Iris's reader opens no URL and
// no protocol); its libraries are opened on first use, so files stay allowed.
//
// Exit 0: the PNG on standard output. Exit 1: a refusal, one line on standard error,
// "STATUS reason" (413 over a limit, 422 not decodable or over the resolution limit, 504 too slow), no library message.
import Foundation
import Iris

#if canImport(Glibc)
import Glibc
#endif

func argument(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let number = Int(arguments[index + 1]) else {
        return value
    }
    return number
}

func refuse(_ status: Int, _ reason: String) -> Never {
    FileHandle.standardError.write(Data("\(status) \(reason)\n".utf8))
    exit(1)
}

#if canImport(Glibc)
func limit(_ resource: Int32, _ value: Int) {
    var bound = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(value))
    _ = setrlimit(__rlimit_resource_t(UInt32(resource)), &bound)
}
limit(Int32(RLIMIT_AS.rawValue), argument("--memory-bytes", default: 4 << 30))
limit(Int32(RLIMIT_CPU.rawValue), argument("--cpu-seconds", default: 60))
limit(Int32(RLIMIT_CORE.rawValue), 0)
#endif

let maxBytes = argument("--max-bytes", default: 50 << 20)
var input = Data()
while let chunk = try? FileHandle.standardInput.read(upToCount: 1 << 16), !chunk.isEmpty {
    input.append(chunk)
    if input.count > maxBytes { refuse(413, "the source is over the size limit") }
}

// A poster is a still: decoded alone, without walking the clip's frames for an animation.
var registry = ImageDecoderRegistry.standard
registry.decodesAnimations = false
guard ImageFormat.videoFormats.contains(registry.format(of: input)) else { refuse(422, "the source is not a video") }
let width = argument("--width", default: 0), height = argument("--height", default: 0)
let unbounded = 1 << 20
let target =
    width > 0 || height > 0
    ? DecodeTarget(
        width: width > 0 ? width : unbounded, height: height > 0 ? height : unbounded,
        contentMode: CommandLine.arguments.contains("--fill") && width > 0 && height > 0 ? .fill : .fit)
    : nil
var limits = DecodingLimits()
limits.maxPixels = argument("--max-pixels", default: limits.maxPixels)
limits.maxVideoSeconds = Double(argument("--max-seconds", default: Int(limits.maxVideoSeconds)))
let image: LoadedImage
do {
    image = try registry.decode(input, options: DecodeOptions(target: target, limits: limits))
} catch {
    switch error {
    case .overLimit(.decodingTime): refuse(504, "decoding the source took longer than the time limit")
    case .overLimit(.pixels): refuse(422, "the source video is over the resolution limit")
    case .overLimit: refuse(413, "the source video is over a limit")
    default: refuse(422, "the source video cannot be decoded")
    }
}
guard let encoder = ImageEncoders.encoder(for: .png), let png = try? encoder.encode(image.bitmap, options: EncodeOptions(quality: 100))
else {
    refuse(422, "the poster could not be written")
}
FileHandle.standardOutput.write(png)
exit(0)
