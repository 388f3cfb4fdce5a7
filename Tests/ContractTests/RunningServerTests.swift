import Foundation
import ServiceAPI
import Testing

/// The harness's own promise: a server that cannot start says why instead of waiting for
/// a port it will never have (a provider test once held CI for its whole time limit).
@Suite struct RunningServerTests {
    @Test func aServerWhosePortIsTakenSaysSoAtOnce() async throws {
        let first = try await RunningServer.start()
        defer { first.stop() }
        await #expect(throws: ServiceError.self) {
            let second = try await RunningServer.start(port: first.port)
            second.stop()
        }
    }
}
