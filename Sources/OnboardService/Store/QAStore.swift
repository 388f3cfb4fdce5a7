import ServiceAPI

/// What QA reads and sets: the outbox of codes sent, the shared clock and faults, and a
/// reset of everything.
public protocol QAStore: Sendable {
    func outbox() async throws -> [OutboxEntry]
    /// Forgets every account, token, name, code and count; keeps the signing keys.
    func reset() async throws
    /// QA's shared settings, kept in the store so every instance on it shares them: the
    /// clock's offset in seconds (`clock`) and each injected fault (`fault:NAME`, with
    /// what it has left: fail-first's failures, slow-down's turn).
    func qaSettings() async throws -> [String: Int64]
    func setQAClockOffset(_ seconds: Int64) async throws
    /// Replaces the faults (`fault:NAME` to its starting count).
    func setQAFaults(_ faults: [String: Int64]) async throws
    /// Takes one from a setting's count, atomically; false when none was left.
    func countDownQASetting(_ name: String) async throws -> Bool
    /// Turns a setting between 0 and 1, atomically; whether it is 1 now (false for a
    /// setting that was never set).
    func flipQASetting(_ name: String) async throws -> Bool
}
