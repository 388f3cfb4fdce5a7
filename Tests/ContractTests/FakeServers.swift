import Foundation
import Hummingbird
import Logging
import NIOCore

/// A server that answers every request with 200 and HTML: "a server that answers garbage".
enum GarbageServer {
    static func start() async throws -> RunningServer {
        let router = Router()
        router.get("**") { _, _ in "<html>not the API</html>" }
        var logger = Logger(label: "garbage-server")
        logger.logLevel = .critical
        return try await RunningServer.run { onReady in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await onReady($0.localAddress?.port ?? 0) }, logger: logger)
        }
    }
}

/// A socket that accepts connections into its backlog and never answers.
final class SilentListener {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { Foundation.close(descriptor) }
}
