import FoundationEssentials
import OwnThread
import PtyShim

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The person's own web browser, for a sign-in approved in a browser (RFC 8628): opened
/// only where it is theirs — a desktop session on this machine, not an SSH session,
/// where this machine's browser would open on a screen nobody is looking at (the code
/// and QR code are there for their phone instead).
public struct Browser: Sendable {
    var environment: [String: String]
    /// `--simulate browser=yes|no` (QA, tests): what this machine reports, whatever it is.
    var simulated: String?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, simulated: String? = nil) {
        self.environment = environment
        self.simulated = simulated
    }

    /// The desktop's opener: xdg-open on Linux and the BSDs, open on macOS.
    var opener: String? {
        #if os(macOS)
        let names = ["open"]
        #else
        let names = ["xdg-open"]
        #endif
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        return folders.lazy.flatMap { folder in names.map { folder + "/" + $0 } }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public var canOpen: Bool {
        if let simulated { return simulated == "yes" }
        let remote = ["SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"].contains { !(environment[$0] ?? "").isEmpty }
        #if os(macOS)
        let desktop = true
        #else
        let desktop = ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
        #endif
        return !remote && desktop && opener != nil
    }

    /// Opens `address` if it is a web address (the service's text, so nothing else:
    /// never a `file:` or another program's scheme), as one argument, with no shell, its
    /// output kept off the screen.
    public func open(_ address: String) throws {
        guard Self.isWebAddress(address) else { throw BrowserError.notAWebAddress }
        if simulated != nil { return }
        guard canOpen, let opener else { throw BrowserError.noBrowser }
        let nothing = openNothing()
        guard nothing >= 0 else { throw BrowserError.noBrowser }
        defer { close(nothing) }
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(opener), strdup(address), nil]
        defer { arguments.forEach { free($0) } }
        var started: pid_t = 0
        guard onboard_spawn_helper(opener, arguments, environ, nothing, &started) == 0 else { throw BrowserError.noBrowser }
        let pid = started
        // The opener hands the address to the browser and ends; reaped, it leaves no zombie
        // (without a thread to reap it on, one until Onboard ends: the browser still opens).
        _ = OwnThread.detach {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        }
    }

    /// `http:` or `https:`, then printable ASCII with no spaces.
    static func isWebAddress(_ address: String) -> Bool {
        let lower = address.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), address.count <= 2048 else { return false }
        return address.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }

    public enum BrowserError: Error, Equatable {
        case notAWebAddress, noBrowser
    }
}

/// `/dev/null` to read from: the opener's input (`Browser.open` hides the C library's
/// `open(2)` by name inside the type).
private func openNothing() -> Int32 {
    open("/dev/null", O_RDONLY | O_CLOEXEC)
}
