import Foundation

/// The listen backlog the service asks for.
public enum ListenBacklog {
    /// The kernel's maximum: `/proc/sys/net/core/somaxconn` on Linux (the kernel caps any
    /// larger request to it), else 4,096.
    public static var kernelMaximum: Int {
        if let text = try? String(contentsOfFile: "/proc/sys/net/core/somaxconn", encoding: .utf8),
            let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), value > 0
        {
            return value
        }
        return 4096
    }
}
