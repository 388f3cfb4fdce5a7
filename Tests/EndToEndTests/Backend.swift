import Foundation

/// Where a test's clients get their service: the embedded mock (one shared database
/// file, so two state folders are two devices on one backend) or an onboard-server.
final class Backend {
    static let kinds = ["mock", "server"]

    let server: ServerProcess?
    let mockDatabase = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-backend-\(UUID().uuidString).sqlite").path

    init(_ kind: String) throws {
        server = kind == "server" ? try ServerProcess() : nil
    }

    var arguments: String {
        if let server { return "--service \(server.base)" }
        return "--mock-db \(mockDatabase)"
    }
}
