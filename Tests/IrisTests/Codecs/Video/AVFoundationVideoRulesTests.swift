import Foundation
import IrisTestSupport
import Testing
@testable import Iris

/// The platform-neutral rules of videos on Apple platforms, checked on Linux: what AVFoundation
/// is asked to play and which frames the poster is looked for at (how its asynchronous decoder
/// is awaited: `AsyncDecodingTests`).
@Suite("Video on Apple platforms: the rules")
struct AVFoundationVideoRulesTests {
    @Test("MP4 and QuickTime are played; WebM and Matroska fail with an error that says AVFoundation cannot play them")
    func playableFormats() throws {
        try AVFoundationVideoFormats.checkPlayable(.mp4)
        try AVFoundationVideoFormats.checkPlayable(.quickTime)
        #expect(throws: ImageError.decodingFailed(format: .webm, reason: "AVFoundation cannot play WebM")) {
            try AVFoundationVideoFormats.checkPlayable(.webm)
        }
        #expect(throws: ImageError.decodingFailed(format: .matroska, reason: "AVFoundation cannot play Matroska")) {
            try AVFoundationVideoFormats.checkPlayable(.matroska)
        }
        #expect(AVFoundationVideoFormats.contentType(of: .mp4) == "public.mpeg-4")
        #expect(AVFoundationVideoFormats.contentType(of: .quickTime) == "com.apple.quicktime-movie")
        #expect(AVFoundationVideoFormats.contentType(of: .webm) == nil)
    }

    @Test("the poster is looked for at the start, then every quarter second within the first seconds of the clip; or at the time asked")
    func posterSeekTimes() {
        #expect(VideoPoster.firstNonBlack.seekSeconds(duration: 1) == [0, 0.25, 0.5, 0.75])
        #expect(VideoPoster.firstNonBlack.seekSeconds(duration: 60).count == 20)
        #expect(VideoPoster.firstNonBlack.seekSeconds(duration: nil).last == 4.75)
        #expect(VideoPoster.at(seconds: 0.5).seekSeconds(duration: 2) == [0.5])
        #expect(VideoPoster.at(seconds: 9).seekSeconds(duration: 2) == [1.95])  // past the end: the end
    }
}
