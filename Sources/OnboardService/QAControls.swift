import ServiceAPI

/// QA controls, on the embedded mock and on `onboard-server --dev`: read the outbox of
/// codes, reset everything.
extension OnboardService {
    public func outbox() async throws -> [OutboxEntry] {
        try await store.outbox()
    }

    /// QA's settings, shared by every instance on this store (`/dev/clock`, `/dev/faults`):
    /// see `ServiceStore.qaSettings`.
    public func qaSettings() async throws -> [String: Int64] {
        try await store.qaSettings()
    }

    public func setQAFaults(_ faults: [String: Int64]) async throws {
        try await store.setQAFaults(faults)
    }

    public func countDownQASetting(_ name: String) async throws -> Bool {
        try await store.countDownQASetting(name)
    }

    public func flipQASetting(_ name: String) async throws -> Bool {
        try await store.flipQASetting(name)
    }

    public func setQAClockOffset(_ seconds: Int64) async throws {
        try await store.setQAClockOffset(seconds)
    }

    /// Deletes every account, token, name, code and count; keeps the signing secret.
    public func reset() async throws {
        try await store.reset()
        overrideConfig([:])
    }
}
