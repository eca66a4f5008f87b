import Foundation
import IrisServerCore
import Testing

@Suite struct FormatNegotiationTests {
    let all = FormatNegotiation(available: [.jpeg, .png, .webp, .avif])

    @Test func prefersAVIFThenWebPThenByAlpha() {
        #expect(all.choose(accept: "image/avif,image/webp,image/apng,*/*;q=0.8", hasAlpha: false, isAnimated: false) == .avif)
        #expect(all.choose(accept: "image/webp,*/*", hasAlpha: false, isAnimated: false) == .webp)
        #expect(all.choose(accept: "*/*", hasAlpha: false, isAnimated: false) == .jpeg)
        #expect(all.choose(accept: nil, hasAlpha: true, isAnimated: false) == .png)
        #expect(all.choose(accept: "image/avif;q=0, image/webp", hasAlpha: false, isAnimated: false) == .webp)
    }

    @Test func animationsGoToWebP() {
        #expect(all.choose(accept: "image/avif,image/webp", hasAlpha: false, isAnimated: true) == .webp)
    }

    @Test func onlyAvailableFormats() {
        let noAVIF = FormatNegotiation(available: [.jpeg, .png, .webp])
        #expect(noAVIF.choose(accept: "image/avif", hasAlpha: false, isAnimated: false) == .jpeg)
    }
}

@Suite struct SourcePolicyTests {
    @Test func addressKinds() {
        let cases: [(String, IPAddress.Kind)] = [
            ("169.254.169.254", .linkLocal), ("10.0.0.1", .private), ("172.16.5.4", .private), ("192.168.1.1", .private),
            ("100.64.0.1", .private), ("127.0.0.1", .loopback), ("127.8.9.10", .loopback), ("0.0.0.0", .unspecified),
            ("224.0.0.251", .multicast), ("255.255.255.255", .unspecified), ("8.8.8.8", .global), ("172.32.0.1", .global),
            ("::1", .loopback), ("[::1]", .loopback), ("::", .unspecified), ("fe80::1", .linkLocal), ("fd00::1", .private),
            ("ff02::1", .multicast), ("::ffff:127.0.0.1", .loopback), ("::ffff:169.254.169.254", .linkLocal),
            ("64:ff9b::a00:1", .private), ("2606:4700::1111", .global),
        ]
        for (text, kind) in cases {
            #expect(IPAddress(text)?.kind == kind, "\(text)")
        }
        #expect(IPAddress("example.com") == nil)
    }

    @Test func onlyPublicAddressesByDefault() throws {
        let policy = SourcePolicy()
        for text in ["169.254.169.254", "10.0.0.1", "::1", "127.0.0.1", "0.0.0.0", "224.0.0.1"] {
            #expect(throws: ServeError.self, "\(text)") { try policy.checkAddresses([IPAddress(text)!]) }
        }
        try policy.checkAddresses([IPAddress("93.184.216.34")!])
        // One bad address among good ones refuses the host.
        #expect(throws: ServeError.self) { try policy.checkAddresses([IPAddress("93.184.216.34")!, IPAddress("10.1.1.1")!]) }
        let loopback = SourcePolicy(allowedAddressKinds: [.global, .loopback])
        try loopback.checkAddresses([IPAddress("127.0.0.1")!, IPAddress("::1")!])
        #expect(throws: ServeError.self) { try loopback.checkAddresses([IPAddress("169.254.169.254")!]) }
    }

    @Test func allowList() throws {
        let policy = SourcePolicy(allowedPrefixes: ["https://images.test/"])
        try policy.checkAllowed(URL(string: "https://images.test/a.jpg")!)
        #expect(throws: ServeError.self) { try policy.checkAllowed(URL(string: "https://images.test.evil/a.jpg")!) }
        #expect(throws: ServeError.self) { try policy.checkAllowed(URL(string: "http://images.test/a.jpg")!) }
    }

    @Test func localPathsStayUnderTheRoot() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("iris-policy-\(UUID().uuidString)")
        let inside = root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data([1, 2, 3]).write(to: inside.appendingPathComponent("a.jpg"))
        try FileManager.default.createSymbolicLink(atPath: inside.appendingPathComponent("out").path, withDestinationPath: "/etc")
        let policy = SourcePolicy(localRoot: root)
        #expect(try policy.localFile("/photos/a.jpg").lastPathComponent == "a.jpg")
        for path in ["../etc/passwd", "/../etc/passwd", "/photos/../../etc/passwd", "/photos/out/passwd", "/photos/./a.jpg", ""] {
            #expect(throws: ServeError.forbidden("the local path leaves the root"), "\(path)") { try policy.localFile(path) }
        }
        #expect(throws: ServeError.notFound("the source was not found")) { try policy.localFile("/photos/missing.jpg") }
        #expect(throws: ServeError.forbidden("local sources are not enabled")) { try SourcePolicy().localFile("/photos/a.jpg") }
    }
}
