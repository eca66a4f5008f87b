// Animated images, for `Benchmarks/runners/animation` (which runs Pillow and libwebp's anim_dump on
// the same files in the same run):
//   decode FILE SIZE RUNS   decode FILE at SIZE×SIZE (fit) and make every frame in order;
//                           prints the best wall time of RUNS in ms
//   play FILE SIZE          play every frame of FILE at SIZE×SIZE in order, as a player does;
//                           prints the frame count, the canvas, the most bytes the animation
//                           held (`Animation.cost`) and its bound (`costLimit`), in bytes
//   stickers SECONDS        20 small animated GIFs (128×128, 30 frames at 25 fps, made by Iris's
//                           GIF encoder) played at once for SECONDS through `Animation.frame(at:)`
//                           at their frame rate, as views play them: first with a window of 3
//                           frames (how every animation played before small ones kept their
//                           frames), then with the default (every frame kept within
//                           `Animation.keptFramesBudget`); prints the process's CPU seconds per
//                           wall second, the frames held and the resident memory for each
// Run: `swift run -c release --package-path Benchmarks AnimationBench decode x.gif 120 5`.
import Foundation
import Iris

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU seconds (user and system) the process has used.
func processCPUSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return user + system
}

/// The process's resident memory in MiB (Linux's /proc; 0 elsewhere).
func residentMiB() -> Double {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = Double(statm.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0)
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

/// A 128×128 sticker of 30 frames: a square moving over a tinted background.
func stickerGIF(seed: Int) async throws -> Data {
    let side = 128
    var frames: [Bitmap] = []
    for index in 0..<30 {
        var frame = Bitmap(width: side, height: side, format: .rgba8)
        let stride = frame.bytesPerRow
        frame.withUnsafeMutableBytes { bytes in
            for y in 0..<side {
                for x in 0..<side {
                    let offset = y * stride + x * 4
                    let inSquare = abs(x - (index * 4 + seed * 7) % side) < 20 && abs(y - (index * 3 + seed * 5) % side) < 20
                    bytes[offset] = inSquare ? 250 : UInt8((x + seed * 13) % 256)
                    bytes[offset + 1] = inSquare ? 40 : UInt8((y * 2) % 256)
                    bytes[offset + 2] = UInt8((seed * 29 + index * 8) % 256)
                    bytes[offset + 3] = 255
                }
            }
        }
        frames.append(frame)
    }
    guard let encoder = ImageEncoders.standard.animationEncoder(for: .gif) else { fatalError("no GIF encoder") }
    return try await encoder.encode(Animation(frames: frames, durations: Array(repeating: 0.04, count: 30)), options: EncodeOptions())
}

/// Plays `stickers` decoded with `bufferBytes` for `seconds`; prints a row.
func playStickers(_ stickers: [Data], bufferBytes: Int?, seconds: Double, name: String) async throws {
    let options = DecodeOptions(target: DecodeTarget(width: 128, height: 128), animationBufferBytes: bufferBytes)
    let animations = try stickers.map { data -> Animation in
        guard let animation = try ImageDecoderRegistry.standard.decode(data, options: options).animation else {
            fatalError("a sticker is not animated")
        }
        return animation
    }
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: .seconds(seconds))
    let cpu = processCPUSeconds()
    var shown = 0
    try await withThrowingTaskGroup(of: Int.self) { group in
        for animation in animations {
            group.addTask {
                var index = 0, frames = 0
                while clock.now < end {
                    _ = try await animation.frame(at: index)
                    frames += 1
                    try await clock.sleep(for: .seconds(animation.duration(at: index)))
                    index = (index + 1) % animation.frameCount
                }
                return frames
            }
        }
        for try await frames in group { shown += frames }
    }
    let used = processCPUSeconds() - cpu
    let held = animations.reduce(0) { $0 + $1.cost }
    print(
        String(
            format: "stickers, %@: %.3f CPU s per s for 20 playing (%d frames shown in %.0f s); frames held %.1f MiB; resident %.0f MiB",
            name, used / seconds, shown, seconds, Double(held) / 1_048_576, residentMiB()))
}

if CommandLine.arguments.count >= 2, CommandLine.arguments[1] == "stickers" {
    let seconds = CommandLine.arguments.count > 2 ? Double(CommandLine.arguments[2]) ?? 10 : 10
    var stickers: [Data] = []
    for seed in 0..<20 { stickers.append(try await stickerGIF(seed: seed)) }
    try await playStickers(
        stickers, bufferBytes: Animation.defaultBufferFrames * 128 * 128 * 4, seconds: seconds,
        name: "a window of 3 frames (before)")
    try await playStickers(stickers, bufferBytes: nil, seconds: seconds, name: "every frame kept (now)")
    exit(0)
}

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: AnimationBench decode FILE SIZE RUNS | play FILE SIZE | stickers SECONDS\n".utf8))
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, let side = Int(arguments[3]) else { usage() }
let data = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
let options = DecodeOptions(target: DecodeTarget(width: side, height: side))

switch arguments[1] {
case "decode":
    let runs = arguments.count > 4 ? Int(arguments[4]) ?? 5 : 5
    var best = Double.infinity
    for _ in 0..<runs {
        let clock = ContinuousClock()
        let start = clock.now
        let image = try ImageDecoderRegistry.standard.decode(data, options: options)
        guard let animation = image.animation else { fatalError("\(arguments[2]) is not animated") }
        for index in 0..<animation.frameCount { _ = try await animation.frame(at: index) }
        let elapsed = clock.now - start
        best = min(best, Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
    }
    print(String(format: "%.2f", best))
case "play":
    let image = try ImageDecoderRegistry.standard.decode(data, options: options)
    guard let animation = image.animation else { fatalError("\(arguments[2]) is not animated") }
    var held = 0
    for index in 0..<animation.frameCount {
        _ = try await animation.frame(at: index)
        held = max(held, animation.cost)
    }
    print(
        "frames=\(animation.frameCount) frame=\(animation.frameSize.width)x\(animation.frameSize.height) "
            + "source=\(image.sourceSize.width)x\(image.sourceSize.height) encoded=\(data.count) "
            + "held=\(held) bound=\(animation.costLimit)")
default:
    usage()
}
