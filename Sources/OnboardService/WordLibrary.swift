import ServiceAPI

/// Words associated with happiness and motivation, from which the service makes
/// fictional names (BR-ONB-004), and the messages Home shows.
enum WordLibrary {
    static let adjectives = [
        "Sunny", "Brave", "Bright", "Cheerful", "Gentle", "Hopeful", "Joyful", "Kind",
        "Lively", "Merry", "Mighty", "Playful", "Radiant", "Steady", "Calm", "Bold",
        "Glowing", "Golden", "Happy", "Eager", "Curious", "Daring", "Fearless", "Gleeful",
        "Grateful", "Jolly", "Lucky", "Peaceful", "Proud", "Serene", "Sparkling", "Spirited",
        "Sprightly", "Sturdy", "Sweet", "Tender", "Upbeat", "Vivid", "Warm", "Zesty",
    ]

    static let nouns = [
        "Otter", "Sunrise", "Spark", "Meadow", "Comet", "Harbor", "Lantern", "Maple",
        "Panda", "Pebble", "Rainbow", "River", "Robin", "Sparrow", "Summit", "Sunflower",
        "Tiger", "Tulip", "Voyager", "Willow", "Beacon", "Blossom", "Breeze", "Canyon",
        "Dolphin", "Ember", "Falcon", "Firefly", "Garden", "Horizon", "Koala", "Lark",
        "Lotus", "Orchard", "Phoenix", "Puffin", "Quokka", "Seedling", "Starling", "Wave",
    ]

    static let motivations = [
        "Every small step counts. You are doing great.",
        "Be proud of how far you have come.",
        "Today is a good day to be kind to yourself.",
        "Progress, not perfection.",
        "You are stronger than you think.",
        "Little by little, a little becomes a lot.",
        "Your feelings are valid, and you are not alone.",
        "Breathe in courage, breathe out doubt.",
        "Showing up is half the journey.",
        "Small joys are still joys. Notice one today.",
        "You have survived every hard day so far.",
        "Rest is productive too.",
    ]

    /// MIGA's mindfulness entries, cached for the hub.
    static let mindfulness: [(String, String)] = [
        ("Three breaths", "Before you open an app, take three slow breaths."),
        ("Name the urge", "Notice the pull to scroll and name it: 'I want distraction.'"),
        ("Five senses", "Find five things you see, four you hear, three you feel."),
        ("Put it down", "Set the phone face down for one minute and look around."),
        ("Why now?", "Ask what you hoped to find before you unlock."),
        ("Body scan", "Relax your jaw, your shoulders, your hands."),
        ("One thing", "Do one thing at a time for the next ten minutes."),
        ("Kind thought", "Think of someone and wish them well."),
        ("Outside", "Look out of a window for thirty seconds."),
        ("Stretch", "Stand up and stretch before you scroll."),
        ("Gratitude", "Name one thing that went well today."),
        ("Slow down", "Read the next message twice as slowly."),
    ]
}

/// Draws candidate names for a guest: adjective and noun, no word twice in one offer,
/// and a number once plain pairs keep colliding.
public struct NameDraw: Sendable {
    public let count: Int
    /// Whether `candidates` starts with plain pairs (see `PlainPairs`).
    public let drawsPlainPairs: Bool
    private var usedAdjectives: Set<String> = []
    private var usedNouns: Set<String> = []
    private var collisions = 0
    private var last: (adjective: String, noun: String)?

    public init(count: Int, drawsPlainPairs: Bool = true) {
        self.count = count
        self.drawsPlainPairs = drawsPlainPairs
    }

    /// A draw whose names share no word with names already offered (a guest's first
    /// offer made up to the full count). It starts with plain pairs only when the offer
    /// has one: its shortfall was a race for a pair another guest took at the same moment,
    /// not pairs running out.
    public init(count: Int, avoiding offered: [String]) {
        self.count = count
        drawsPlainPairs = offered.contains(where: Self.isPlainPair)
        for name in offered {
            let words = name.split(separator: " ")
            if words.count >= 2 {
                usedAdjectives.insert(String(words[0]))
                usedNouns.insert(String(words[1]))
            }
        }
        collisions = drawsPlainPairs ? 0 : 3
    }

    /// Candidates for one statement to take the first free `count` of, in order: plain
    /// pairs first (when `drawsPlainPairs`), then numbered ones, no word twice among them
    /// all, so any `count` taken make an offer with no word twice. Six numbered names all
    /// offered before would take millions of guests.
    public func candidates() -> [String] {
        let plain = drawsPlainPairs ? 6 : 0, numbered = 6
        var random = NameRandom()
        let adjectives = WordLibrary.adjectives.filter { !usedAdjectives.contains($0) }.shuffled(using: &random)
        let nouns = WordLibrary.nouns.filter { !usedNouns.contains($0) }.shuffled(using: &random)
        let pairs = Array(zip(adjectives, nouns).prefix(plain + numbered))
        return pairs.enumerated().map { index, pair in
            index < plain ? "\(pair.0) \(pair.1)" : "\(pair.0) \(pair.1) \(Int.random(in: 2...99_999, using: &random))"
        }
    }

    /// Whether `name` is a plain pair, as `candidates` and `next` write one: a numbered
    /// name ends in its number.
    public static func isPlainPair(_ name: String) -> Bool {
        !name.contains(where: \.isNumber)
    }

    public mutating func next() -> String {
        let adjective = WordLibrary.adjectives.filter { !usedAdjectives.contains($0) }.randomElement()!
        let noun = WordLibrary.nouns.filter { !usedNouns.contains($0) }.randomElement()!
        last = (adjective, noun)
        // Plain pairs (1,600) run out after a few hundred users: once they collide, a
        // number keeps names unique without bound, and each sign-in cheap.
        return collisions >= 3 ? "\(adjective) \(noun) \(Int.random(in: 2...99_999))" : "\(adjective) \(noun)"
    }

    /// The last name drawn was reserved.
    public mutating func taken() {
        guard let last else { return }
        usedAdjectives.insert(last.adjective)
        usedNouns.insert(last.noun)
    }

    /// The last name drawn was offered to someone else already.
    public mutating func collided() {
        collisions += 1
    }
}

/// SplitMix64 from one system random seed: a name is no secret, and the system generator
/// costs a getrandom syscall per number (a draw takes about a hundred).
private struct NameRandom: RandomNumberGenerator {
    private var state = UInt64.random(in: .min ... .max)

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
