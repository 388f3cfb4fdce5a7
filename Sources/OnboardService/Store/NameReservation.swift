/// How a guest's names are reserved service-wide, for a store to drive inside its
/// transaction: the draw's candidates in order until `count` are reserved, then, should
/// others have taken some (a rare shortfall), fresh draws one at a time that share no
/// word with the names already reserved.
///
/// States: trying candidates → drawing afresh → done (`next()` is nil). The store tries
/// each name `next()` gives and reports with `tried(_:reserved:)`; without this one
/// machine each store kept its own copy of the loop, and they drifted.
public struct NameReservation: Sendable {
    public private(set) var reserved: [String]
    private let count: Int
    private var candidates: [String]
    private var draw: NameDraw?

    /// `candidates` (from `NameDraw.candidates()`, drawn before the transaction) are tried
    /// first, unless the store has tried them another way (one statement for all) and
    /// passes `reserved` instead.
    public init(count: Int, candidates: [String] = [], reserved: [String] = []) {
        self.count = count
        self.candidates = candidates.reversed()
        self.reserved = reserved
    }

    /// The next name to try, nil once `count` are reserved.
    public mutating func next() -> String? {
        guard reserved.count < count else { return nil }
        if let candidate = candidates.popLast() { return candidate }
        if draw == nil { draw = NameDraw(count: count, avoiding: reserved) }
        return draw?.next()
    }

    /// Whether the store could reserve the name `next()` gave (no one had it).
    public mutating func tried(_ name: String, reserved isReserved: Bool) {
        if isReserved { reserved.append(name) }
        guard draw != nil else { return }
        if isReserved { draw?.taken() } else { draw?.collided() }
    }
}
