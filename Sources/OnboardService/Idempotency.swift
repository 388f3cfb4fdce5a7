import CoreMetrics
import Crypto
import Foundation
import ServiceAPI

/// Calls that create something (an account, a guest, a child, an invite) or spend
/// something single-use (a code, an invite, an ID token) take an idempotency key, as
/// payment APIs do: a repeat with the same key — a retry after a lost reply, a relaunch,
/// a call re-issued after Ctrl-Z — gets the first call's result instead of a second
/// account or an "already used".
///
/// The table holds no token in clear: a row is found by a hash of the key, and the
/// result is sealed (AES-256-GCM) with a key derived from the idempotency key. A failed
/// call leaves no row, so trying again runs it again. A signed-in caller's keys are its own
/// (as payment APIs scope them per account): the same key with another session, or none,
/// is another request, never a replay of this one's result.
///
/// Keys are not secrets (ASVS 3.5): each is bound to a keyed hash of its request
/// (operation, body, caller, the device's proof). The same key with another request is
/// refused (422, as the IETF Idempotency-Key draft says), and a repeated sign-in never gets
/// the tokens the first call issued: `replay` makes a new session for the same account,
/// which only a repeat that proves what the first did (the same password, code, ID token
/// or device proof) can reach.
extension OnboardService {
    /// How long a result is kept for repeats.
    static let idempotencyWindow: Int64 = 24 * 3600
    /// A repeat waits this long (seconds) for the first call to finish; a reservation
    /// older than that was abandoned (a process killed mid-call) and is taken over.
    static let idempotencyWait: Int64 = 15

    func idempotent<T: Codable & Sendable>(
        _ key: String?, operation: String, caller: String? = nil, request: [String: String] = [:],
        replay: ((T) async throws -> T)? = nil, _ work: () async throws -> T
    ) async throws -> T {
        guard let key else { return try await work() }
        guard (16...200).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw ServiceError(.invalidInput, "An Idempotency-Key is 16 to 200 printable ASCII characters without spaces.")
        }
        let id = Secrets.hash("idempotency-id:" + (caller.map { $0 + ":" } ?? "") + key)
        let sealing = SymmetricKey(data: SHA256.hash(data: Array(("idempotency-seal:" + key).utf8)))
        let requestHash = Self.requestHash(key: key, operation: operation, caller: caller, request: request)
        let started = clock.now()
        while true {
            switch try await claim(id, operation: operation, request: requestHash) {
            case .claimed:
                return try await runClaimed(id, sealing: sealing, work)
            case .finished(let sealed):
                guard let box = try? AES.GCM.SealedBox(combined: sealed),
                    let opened = try? AES.GCM.open(box, using: sealing),
                    let result = try? JSONDecoder().decode(T.self, from: opened)
                else {
                    throw ServiceError(.serverError, "The stored result of this request cannot be read.")
                }
                Counter(label: "onboard_idempotent_replays_total", dimensions: [("operation", operation)]).increment()
                return try await replay?(result) ?? result
            case .running, .otherOperation:
                // The first call is still under way (a retry raced it): wait for its result.
                guard clock.now() - started <= Self.idempotencyWait else {
                    throw ServiceError(.rateLimited, "The same request is still being processed; try again shortly.", retryAfter: 2)
                }
                try await Task.sleep(for: .milliseconds(50))
            case .otherRequest:
                record(.idempotencyKeyReused, account: caller, outcome: "refused: \(operation) with another request")
                throw ServiceError(
                    .idempotencyKeyReused, "This Idempotency-Key was already used for a different request. Use a new key for a new request."
                )
            }
        }
    }

    /// HMAC-SHA256 of the request under a key derived from the idempotency key: the row
    /// says nothing of a body (a password, a code) to whoever reads the table without it.
    static func requestHash(key: String, operation: String, caller: String?, request: [String: String]) -> String {
        let fields = request.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let text = ([operation, caller ?? ""] + fields).joined(separator: "\u{1F}")
        let mac = HMAC<SHA256>.authenticationCode(
            for: Array(text.utf8), using: SymmetricKey(data: SHA256.hash(data: Array(("idempotency-request:" + key).utf8))))
        return mac.map { String(format: "%02x", $0) }.joined()
    }

    /// A repeated sign-in's answer: a new session for the account the first call signed in.
    func reissued(_ first: IssuedSession, policy: TokenPolicy) async throws -> IssuedSession {
        var session = try await issue(userID: first.userID, createdAt: first.createdAt, isAnonymous: first.isAnonymous, policy: policy)
        session.deviceToken = first.deviceToken
        return session
    }

    /// Forgets expired keys, then claims `id` or reports its state.
    private func claim(_ id: String, operation: String, request: String) async throws -> IdempotencyClaim {
        let claim = try await store.claimIdempotency(
            id, operation: operation, request: request, now: clock.now(), window: Self.idempotencyWindow, wait: Self.idempotencyWait)
        if case .otherOperation = claim {
            throw ServiceError(.conflict, "This Idempotency-Key was already used for another kind of request.")
        }
        return claim
    }

    private func runClaimed<T: Codable & Sendable>(_ id: String, sealing: SymmetricKey, _ work: () async throws -> T) async throws -> T {
        let result: T
        do {
            result = try await work()
        } catch {
            try? await store.releaseIdempotency(id)
            throw error
        }
        let sealed = try AES.GCM.seal(try JSONEncoder().encode(result), using: sealing).combined ?? Data()
        try await store.sealIdempotency(id, result: sealed)
        return result
    }
}
