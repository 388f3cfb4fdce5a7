import ServiceAPI
import ServiceClient

/// Mindfulness entries that ship with Onboard: MIGA's cache when the service cannot be
/// reached on first run.
enum BundledContent {
    static let mindfulness: [ContentEntry] = [
        ("Pause", "Before you tap, pause for one breath and ask what you came for."),
        ("Feet on the floor", "Feel your feet on the floor for ten seconds."),
        ("Look up", "Look at something far away for twenty seconds."),
        ("One more breath", "Breathe in for four, out for six, once more than you planned."),
        ("Notice", "Notice the urge to check. You do not have to act on it."),
        ("Shoulders", "Drop your shoulders away from your ears."),
        ("Enough", "You have already seen enough today. Choose what comes next."),
        ("Someone real", "Send a message to one person instead of scrolling many."),
        ("Water", "Drink a glass of water before you open the app."),
        ("Later", "Write down what you wanted to look up, and look later."),
    ].enumerated().map { ContentEntry(id: "b\($0.offset + 1)", title: $0.element.0, body: $0.element.1) }
}
