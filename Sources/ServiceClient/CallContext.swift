/// What travels with a call beyond its arguments, set by the runtime around the call:
/// the idempotency key of a call that creates something or spends something single-use
/// (see `OnboardService.idempotent`). Transports pass it on: the embedded mock as an
/// argument, HTTP as the `Idempotency-Key` header.
public enum CallContext {
    @TaskLocal public static var idempotencyKey: String?
    /// Proof that a repeat comes from the device that made the first call (a keyed hash
    /// of the key under the device's own secret): sent as `Idempotency-Proof`, so a
    /// repeated sign-in gets a session only where the first one was asked for.
    @TaskLocal public static var idempotencyProof: String?
    /// The token this device got at its last password sign-in to the account a log-in is
    /// for: sent as `Device-Token`, so the account's lock for strangers' guesses spares it.
    @TaskLocal public static var deviceToken: String?
}
