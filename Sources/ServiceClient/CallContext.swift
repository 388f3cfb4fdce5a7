/// What travels with a call beyond its arguments, set by the runtime around the call:
/// the idempotency key of a call that creates something or spends something single-use
/// (see `OnboardService.idempotent`). Transports pass it on: the embedded mock as an
/// argument, HTTP as the `Idempotency-Key` header.
public enum CallContext {
    @TaskLocal public static var idempotencyKey: String?
}
