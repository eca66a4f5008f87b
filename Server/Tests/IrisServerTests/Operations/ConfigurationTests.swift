import Foundation
import IrisServer
import IrisServerCore
import Testing

/// `IRIS_*` variables over the defaults; a value that does not parse names its variable.
@Suite struct ConfigurationTests {
    @Test func defaultsAreSafe() {
        let config = IrisServerConfiguration()
        #expect(config.host == "127.0.0.1" && config.port == 8080 && !config.development && config.signingKeys.isEmpty)
        #expect(config.sourcePolicy.allowedAddressKinds == [.global] && config.sourcePolicy.localRoot == nil)
        #expect(config.maxRedirects == 10 && !config.clientHints)
        #expect(!config.videoSources && config.maxQueuedRenders == 2048 && config.queueTimeout == .seconds(10))
        #expect(config.maxWaitingSourceBytes == 1 << 30)
    }

    /// The listen backlog is the kernel's maximum, as the kernel says it.
    @Test func theListenBacklogIsTheKernelMaximum() throws {
        let somaxconn = try? String(contentsOfFile: "/proc/sys/net/core/somaxconn", encoding: .utf8)
        let expected = somaxconn.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 4096
        #expect(IrisServerConfiguration().listenBacklog == expected && ListenBacklog.kernelMaximum == expected)
        #expect(expected > 256)
    }

    @Test func environmentIsApplied() throws {
        let config = try IrisServerConfiguration().applying(environment: [
            "IRIS_HOST": "0.0.0.0", "IRIS_PORT": "9000", "IRIS_DEV": "true",
            "IRIS_KEY": "736563726574, 6e6577", "IRIS_SALT": "68656C6C6F,00", "IRIS_SIGNATURE_SIZE": "8",
            "IRIS_ALLOWED_SOURCES": "https://a.test/,https://b.test/", "IRIS_LOCAL_ROOT": "/srv/images",
            "IRIS_ALLOW_ADDRESSES": "loopback,private", "IRIS_MAX_SOURCE_BYTES": "1000", "IRIS_DOWNLOAD_TIMEOUT": "3",
            "IRIS_TTL": "60", "IRIS_WORKERS": "3", "IRIS_QUEUE": "0", "IRIS_CLIENT_HINTS": "1", "IRIS_VIDEO": "1",
            "IRIS_QUEUE_TIMEOUT": "4",
            "IRIS_PRESETS": "thumb=rs:fill:100:100/g:sm;default=q:70", "PATH": "/usr/bin",
        ])
        #expect(config.host == "0.0.0.0" && config.port == 9000 && config.development)
        #expect(config.signingKeys.count == 2 && config.signatureSize == 8)
        #expect(config.sourcePolicy.allowedPrefixes == ["https://a.test/", "https://b.test/"])
        #expect(config.sourcePolicy.localRoot?.path == "/srv/images")
        #expect(config.sourcePolicy.allowedAddressKinds == [.global, .loopback, .private])
        #expect(config.maxSourceBytes == 1000 && config.downloadTimeout == .seconds(3) && config.cacheTTL == 60)
        #expect(config.maxConcurrentRenders == 3 && config.maxQueuedRenders == 0 && config.clientHints)
        #expect(config.videoSources && config.queueTimeout == .seconds(4))
        #expect(config.presets == ["thumb": ["rs:fill:100:100", "g:sm"], "default": ["q:70"]])
    }

    @Test func badValuesNameTheirVariable() {
        for (name, value) in [("IRIS_PORT", "eighty"), ("IRIS_ALLOW_ADDRESSES", "everything"), ("IRIS_KEY", "zz")] {
            var environment = [name: value]
            if name == "IRIS_KEY" { environment["IRIS_SALT"] = "00" }
            #expect(throws: ConfigurationError.self, "\(name)") { try IrisServerConfiguration().applying(environment: environment) }
        }
        #expect(throws: ConfigurationError.self) {
            try IrisServerConfiguration().applying(environment: ["IRIS_KEY": "00", "IRIS_SALT": "00,11"])
        }
    }
}
