// Animated images, for `scripts/bench-animation` (which runs Pillow and libwebp's anim_dump on
// the same files in the same run):
//   decode FILE SIZE RUNS   decode FILE at SIZE×SIZE (fit) and make every frame in order;
//                           prints the best wall time of RUNS in ms
//   play FILE SIZE          play every frame of FILE at SIZE×SIZE in order, as a player does;
//                           prints the frame count, the canvas, the most bytes the animation
//                           held (`Animation.cost`) and its bound (`costLimit`), in bytes
// Run: `swift run -c release AnimationBench decode x.gif 120 5`.
import Foundation
import Iris

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: AnimationBench decode FILE SIZE RUNS | play FILE SIZE\n".utf8))
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
