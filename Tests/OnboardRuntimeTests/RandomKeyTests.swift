import EmbeddedMock
import FlowEngine
import Foundation
import OnboardRuntime
import OnboardService
import SQLiteStore
import ScreenTable
import ServiceAPI
import ServiceClient
import TerminalUI
import Testing
import TestSupport

/// A cat on the keyboard: seeded random key streams through the whole client — the key
/// decoder, the runner, the QA console, the engine and the renderer, with the embedded
/// mock behind it — on every built-in flow. Every key must leave a screen that renders
/// at whatever size the terminal has just become; no trap, hang or assertion. Ctrl-C in
/// the stream ends the run and the flow is relaunched from its files, as a person would.
///
/// `swift test` runs a short fixed-seed pass; `ONBOARD_RANDOM_KEYS=1000000` (and
/// `ONBOARD_RANDOM_SEED`) make it the full run (`reliability/run`).
@Suite(.serialized) struct RandomKeyTests {
    static let keysPerFlow =
        Int(ProcessInfo.processInfo.environment["ONBOARD_RANDOM_KEYS"] ?? "").map { $0 / BuiltinFlows.ids.count } ?? 3_000
    static let seed = UInt64(ProcessInfo.processInfo.environment["ONBOARD_RANDOM_SEED"] ?? "") ?? 20_261_123

    @Test(arguments: BuiltinFlows.ids)
    func randomKeysAlwaysLeaveAScreenThatRenders(flowID: String) async throws {
        let seed = Self.seed &+ UInt64(BuiltinFlows.ids.firstIndex(of: flowID)!)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-random-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let flow = try BuiltinFlows.load(flowID)
        let clock = RuntimeClock()
        let service = try OnboardService(database: try ServiceDatabase.open(path: folder + "/mock.sqlite"), clock: clock)
        let keyboard = RandomKeyboard(seed: seed, keys: Self.keysPerFlow)
        let report = await withCheckedContinuation { continuation in
            Thread {
                var launches = 0
                let watchdog = Watchdog(label: "\(flowID), seed \(seed)")
                while !keyboard.isDone {
                    launches += 1
                    let store = StateStore(stateDirectory: folder, flowID: flowID)
                    let session = FlowSession.on(
                        InProcessTransport(service: service), flow: flow, store: store, clock: clock)
                    let terminal = RandomKeyTerminal(keyboard: keyboard, watchdog: watchdog, session: session)
                    _ = FlowRunner(session: session, renderer: Renderer(), terminal: terminal).run()
                }
                watchdog.stop()
                continuation.resume(returning: (launches, keyboard.problems, keyboard.sizesSeen, keyboard.screensSeen, keyboard.refused))
            }.start()
        }
        #expect(report.1.isEmpty, "seed \(seed): \(report.1.prefix(5).joined(separator: "; "))")
        #expect(report.0 >= 1)
        #expect(report.2.contains { $0.width <= 10 && $0.height <= 5 }, "tiny terminals were tried")
        // A route has no screen of its own: arriving there goes straight on. A screen the
        // flow forbids for who was signed in (jumps refused, issue 30) is not a miss.
        let unseen = Set(flow.screens.filter { $0.kind != .route }.map(\.id)).subtracting(report.3)
        let forbidden = unseen.filter { report.4[$0] != nil }
        #expect(unseen.subtracting(forbidden).isEmpty, "every screen had keys: \(unseen.subtracting(forbidden).sorted()) had none")
        #expect(forbidden.allSatisfy { report.4[$0]!.contains("is_anonymous") || report.4[$0]!.contains("is_signed_in") })
    }
}

/// Where the random keys come from, across relaunches, and what was seen wrong.
final class RandomKeyboard: @unchecked Sendable {
    private var random: SeededGenerator
    private var left: Int
    private var decoder = KeyDecoder()
    var size = (width: 80, height: 24)
    var problems: [String] = []
    var sizesSeen: [(width: Int, height: Int)] = []
    var screensSeen: Set<String> = []
    /// Screens a jump was refused for, with the refusal.
    var refused: [String: String] = [:]

    init(seed: UInt64, keys: Int) {
        random = SeededGenerator(seed: seed)
        left = keys
    }

    var isDone: Bool { left <= 0 }

    /// Now and then a QA jump (the console's own event) to the next screen in turn, so
    /// every screen gets keys, not only those random keys reach.
    func jump(among screens: [String]) -> String? {
        guard Int.random(in: 0..<12, using: &random) == 0, !screens.isEmpty else { return nil }
        jumps += 1
        return screens[jumps % screens.count]
    }
    private var jumps = 0

    /// One read's worth of input, as the terminal would hand it over.
    func read() -> [TerminalInput] {
        guard left > 0 else { return [.key(.control("c"))] }
        var keys: [Key] = []
        var inputs: [TerminalInput] = []
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            left -= 1
            let roll = Int.random(in: 0..<1000, using: &random)
            switch roll {
            case 0..<380: keys.append(.character(Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &random)))))
            case 380..<480: keys.append(.character(oddCharacter()))
            case 480..<620:
                keys.append([.up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .tab, .backTab].randomElement(using: &random)!)
            case 620..<720: keys.append(.enter)
            case 720..<770: keys.append(.escape)
            case 770..<830: keys.append([.backspace, .delete, .insert].randomElement(using: &random)!)
            case 830..<880:
                // Ctrl with a letter; Ctrl-C (quit) is rarer, so runs get somewhere.
                let letter = Character(Unicode.Scalar(UInt8.random(in: 0x61...0x7A, using: &random)))
                if letter != "c" || Int.random(in: 0..<20, using: &random) == 0 { keys.append(.control(letter)) }
            case 880..<900: keys.append(.function(Int.random(in: 1...12, using: &random)))
            case 900..<920:
                let inner: Key = [.left, .right, .up, .down, .character("b"), .character("f"), .backspace].randomElement(using: &random)!
                keys.append(.modified(inner, Key.Modifiers(rawValue: Int.random(in: 1...7, using: &random))))
            case 920..<960: keys += garbageSequence()
            case 960..<985: keys += paste()
            default:
                inputs.append(contentsOf: decode(keys))
                keys = []
                resize()
                inputs.append(.resize)
            }
        }
        return inputs + decode(keys)
    }

    private func decode(_ keys: [Key]) -> [TerminalInput] {
        decoder.decode(keys)
    }

    /// Wide, combining, zero-width, right-to-left, control and replacement characters:
    /// what invalid UTF-8 and odd input become once the terminal library has read them.
    private func oddCharacter() -> Character {
        let pools: [ClosedRange<UInt32>] = [
            0x00...0x1F, 0x7F...0x9F, 0xA0...0x17F, 0x300...0x36F, 0x200B...0x200F, 0x202A...0x202E,
            0x4E00...0x4E80, 0x1F600...0x1F64F, 0xFFFD...0xFFFD, 0xAC00...0xAC40, 0x0600...0x06FF,
        ]
        let pool = pools.randomElement(using: &random)!
        return Character(Unicode.Scalar(UInt32.random(in: pool, using: &random)) ?? "\u{FFFD}")
    }

    /// Esc and what might follow it: a cut-off or unknown sequence, or a known one.
    private func garbageSequence() -> [Key] {
        let alphabet = Array("[O0123456789;~ABCDHFPQRSmMu<>?200201")
        return [.escape] + (0..<Int.random(in: 0...6, using: &random)).map { _ in .character(alphabet.randomElement(using: &random)!) }
    }

    /// A bracketed paste of random text, now and then huge or never closed.
    private func paste() -> [Key] {
        let length =
            Int.random(in: 0..<10, using: &random) == 0
            ? Int.random(in: 1_000...120_000, using: &random) : Int.random(in: 0...80, using: &random)
        var text: [Key] = []
        text.reserveCapacity(length)
        for _ in 0..<length {
            text.append(
                Int.random(in: 0..<8, using: &random) == 0
                    ? .character(oddCharacter()) : .character(Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &random)))))
        }
        let start: [Key] = [.escape, .character("["), .character("2"), .character("0"), .character("0"), .character("~")]
        let end: [Key] = [.escape, .character("["), .character("2"), .character("0"), .character("1"), .character("~")]
        return start + text + (Int.random(in: 0..<10, using: &random) == 0 ? [] : end)
    }

    /// Down to 1x1 now and then, 10x5 and 80x24 often.
    private func resize() {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: size = (Int.random(in: 1...12, using: &random), Int.random(in: 1...6, using: &random))
        case 1: size = [(10, 5), (40, 12), (80, 24)].randomElement(using: &random)!
        default: size = (Int.random(in: 1...220, using: &random), Int.random(in: 1...70, using: &random))
        }
        sizesSeen.append(size)
    }

    /// What a drawn frame must be: the terminal's size, its cursor on it.
    func check(_ frame: Frame) {
        guard problems.count < 20 else { return }
        if frame.width != size.width || frame.height != size.height {
            problems.append("a \(frame.width)x\(frame.height) frame on a \(size.width)x\(size.height) terminal")
        }
        if let cursor = frame.cursor, !(0..<frame.width).contains(cursor.x) || !(0..<frame.height).contains(cursor.y) {
            problems.append("the cursor at \(cursor.x),\(cursor.y) outside a \(frame.width)x\(frame.height) frame")
        }
    }
}

/// The terminal the keyboard types into.
final class RandomKeyTerminal: TerminalDevice {
    let keyboard: RandomKeyboard
    let watchdog: Watchdog
    let session: FlowSession
    /// The flow's screens, for the keyboard's QA jumps.
    let screens: [String]
    /// Always readable, so the loop never sleeps.
    let inputDescriptor = open("/dev/zero", O_RDONLY)

    init(keyboard: RandomKeyboard, watchdog: Watchdog, session: FlowSession) {
        self.keyboard = keyboard
        self.watchdog = watchdog
        self.session = session
        screens = session.engine.flow.screens.map(\.id)
    }

    deinit { close(inputDescriptor) }

    var size: (width: Int, height: Int) { keyboard.size }

    func draw(_ frame: Frame) { keyboard.check(frame) }

    func readInputs() -> [TerminalInput] {
        watchdog.alive()
        if let screen = keyboard.jump(among: screens) {
            // A jump the flow's guards on who is signed in refuse (a screen of a guest
            // while no one is): the screen is not opened, and the refusal says so.
            if let refusal = session.engine.jumpRefusal(to: screen, session.state) {
                keyboard.refused[screen] = refusal
            }
            session.dispatch(.jump(screen))
        }
        if let screen = session.state.screenID { keyboard.screensSeen.insert(screen) }
        return keyboard.read()
    }

    func suspend() {}
    func invalidate() {}
}

/// Ends the test process, naming the flow and seed, when the run stops asking for keys
/// for a minute: a hang would otherwise hold the suite until CI's own time limit.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var last = Date()
    private var stopped = false

    init(label: String) {
        Thread { [self] in
            while true {
                sleep(5)
                let (since, stopped) = lock.withLock { (Date().timeIntervalSince(last), self.stopped) }
                if stopped { return }
                if since > 60 { fatalError("random keys: no key asked for in 60 s (\(label)) — a hang") }
            }
        }.start()
    }

    func alive() { lock.withLock { last = Date() } }
    func stop() { lock.withLock { stopped = true } }
}
