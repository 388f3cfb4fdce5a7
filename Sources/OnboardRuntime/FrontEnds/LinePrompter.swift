import FlowEngine
import FoundationEssentials
import InputRules
import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Accessible mode: the same flows, from the same screen table and engine, as plain
/// lines — each screen written once as text, each field asked in turn, the buttons and
/// choices as a numbered list, and a wrong answer asked again. For screen readers,
/// terminals that cannot draw, and scripts (standard input may be a pipe).
public final class LinePrompter {
    private let session: FlowSession
    private let readLine: (_ secret: Bool) -> String?
    private let write: (String) -> Void
    /// The last screen written, so an unchanged screen is not repeated.
    private var lastShown = ""
    /// Where answers are typed, watched while a screen polls (nil: not watched).
    private let input: Int32?
    /// The poll moved the flow on while a question waited: the question is dropped.
    private var overtaken = false

    /// `readLine` returns nil at the end of input; `secret` asks it not to echo.
    /// `echo` writes each answer after its prompt, so a transcript of piped input reads
    /// as a conversation (a terminal echoes by itself).
    public init(
        session: FlowSession, readLine: @escaping (_ secret: Bool) -> String? = LinePrompter.standardInput(secret:),
        write: @escaping (String) -> Void = LinePrompter.standardOutput, echo: Bool = isatty(0) != 1,
        input: Int32? = isatty(0) == 1 ? 0 : nil
    ) {
        self.session = session
        self.input = input
        // Every line it writes is made inert first: a name or content holding escapes
        // reaches this terminal as visible signs, never as commands (issue 31).
        let write = { (text: String) in write(TerminalText.safe(text)) }
        self.write = write
        self.readLine = { secret in
            let line = readLine(secret)
            if echo, let line { write((secret && !line.isEmpty ? "••••••" : line) + "\n") }
            return line
        }
    }

    private var state: FlowState { session.state }

    public func run() -> FlowEnding {
        session.launch()
        while session.ending == nil {
            settle()
            guard session.ending == nil else { break }
            show()
            guard state.screenID != nil, state.phase == .showing else { break }
            if !ask() {
                // End of input: everything so far is saved, as after Ctrl-C.
                write("\nEnd of input; your progress is saved.\n")
                session.dispatch(.intent(.quit))
            }
        }
        return session.ending ?? .quit
    }

    // MARK: Waiting

    /// How long a screen waits for its background loads before it is printed (ms): a
    /// printed line cannot be redrawn, so what a load computes (MIGA's streak day, today's
    /// banner) is waited for rather than shown stale from the last run.
    static let backgroundWait = 2_000

    /// Waits while a call the user waits for runs, saying so once; then, briefly, for the
    /// screen's background loads.
    private func settle() {
        session.dispatch(.tick)
        var said = false
        while state.isBusy, session.ending == nil {
            if !said {
                let view = session.view()
                if let label = view.busyLabel, !label.isEmpty { write(label + "\n") } else { write("Please wait...\n") }
                said = true
            }
            session.wait(milliseconds: 1000)
            session.dispatch(.tick)
        }
        var waited: Int32 = 0
        while state.calls.loadingInBackground, waited < Self.backgroundWait, session.ending == nil {
            session.wait(milliseconds: 50)
            waited += 50
        }
        session.receiveMail()
    }

    // MARK: Showing a screen

    private func show() {
        let view = session.view()
        let text = Self.describe(view)
        guard text != lastShown else {
            // The same screen after an answer: an error it produced again (a second failed
            // Try Again) is said again, or the answer would seem to do nothing (issue 32).
            if case .error(let message)? = view.message { write("Error: \(message)\n") }
            return
        }
        lastShown = text
        write("\n" + text)
    }

    /// A screen as lines: step, title, body, bullets, list, checklist, message, warnings.
    public static func describe(_ view: ScreenView) -> String {
        var lines: [String] = []
        if let step = view.stepLabel { lines.append(step) }
        if !view.title.isEmpty { lines.append("== \(view.title) ==") }
        if !view.body.isEmpty { lines.append(view.body) }
        // Bullets stay bullets: numbers are for the choices below, answered by number.
        // Bullets the flow numbered itself keep their own numbers.
        lines += view.bullets.map { bullet in
            bullet.first?.isNumber == true ? "  \(bullet)" : "  • \(bullet)"
        }
        lines += view.items.map { "  - \($0)" }
        if !view.emptyItems.isEmpty { lines.append(view.emptyItems) }
        for line in view.checklist {
            let status: String =
                switch line.status {
                case .waiting: "waiting"
                case .running(let note): note.map { "working (\($0))" } ?? "working"
                case .done(let detail): detail.isEmpty || detail == "done" ? "done" : "done (\(detail))"
                case .fellBack(let detail): detail
                case .failed(let detail): "failed: \(detail)"
                }
            lines.append("  \(line.label): \(status)")
        }
        switch view.message {
        case .error(let text)?: lines.append("Error: \(text)")
        case .notice(let text)?: lines.append(text)
        case nil: break
        }
        lines += (view.warnings + view.notes).map { "Note: \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Asking

    /// Asks for each field, then for a choice; false at the end of input.
    private func ask() -> Bool {
        let screenID = state.screenID
        let view = session.view()
        for index in view.fields.indices {
            session.dispatch(.intent(.focus(index)))
            var field = view.fields[index]
            while true {
                guard let value = askValue(of: field) else { return false }
                guard let value else { break }  // Enter keeps the value, even one with an error
                session.dispatch(.intent(.setValue(value)))
                // A full code submits itself: the screen moves on without a button.
                if state.isBusy || state.screenID != screenID { return true }
                // A value refused as typed (a bad email, a paste cut short) is asked again.
                field = session.view().fields[index]
                if field.error == nil { break }
            }
        }
        let after = session.view()
        // A link reads as it is drawn: "Already have an account? Log in".
        let buttons = after.buttons.map { button in button.linkPrompt.map { "\($0) \(button.label)" } ?? button.label }
        // What can be chosen now (a checklist has no buttons until it is done).
        var menu = after.options.map(\.label) + buttons
        // Esc's way back, unless the screen has a Back button of its own (RuckTracker's).
        if after.canGoBack, !buttons.contains(where: { $0.lowercased() == "back" }) { menu.append("Back") }
        if menu.isEmpty, after.checklist.contains(where: { if case .failed = $0.status { true } else { false } }) {
            // A setup step failed with no way around it: Enter tries it again.
            write("Press Enter to try again, or type q to quit: ")
            guard let answer = readLine(false) else { return false }
            session.dispatch(.intent(answer.trimmingWhitespace.lowercased() == "q" ? .quit : .activate))
            return true
        }
        guard !menu.isEmpty else {
            write("Press Enter to quit. ")
            _ = readLine(false)
            session.dispatch(.intent(.quit))
            return true
        }
        guard let picked = askNumber(menu) else { return false }
        if overtaken {
            // Approved in the browser meanwhile (or the code ran out): the next screen.
            overtaken = false
            write("\n")
            return true
        }
        if after.canGoBack, menu.last == "Back", !buttons.contains("Back"), picked == menu.count - 1 {
            session.dispatch(.intent(.back))
        } else {
            session.dispatch(.intent(.focus(view.fields.count + picked)))
            session.dispatch(.intent(.activate))
        }
        return true
    }

    /// One of the numbered items (0-based), asked until the answer is a number in range;
    /// with one item, Enter alone picks it. Nil at the end of input.
    private func askNumber(_ items: [String]) -> Int? {
        guard let picked = askChoice(items, enter: items.count == 1 ? "or press Enter" : nil) else { return nil }
        return picked ?? 0
    }

    /// A field's new value: nil at the end of input, `.some(nil)` to keep what it has.
    private func askValue(of field: ScreenView.FieldView) -> Value?? {
        if let error = field.error { write("\(field.label): \(error)\n") }
        switch session.engine.question(for: field) {
        case .choice:
            write("\(field.label)\(field.value.isEmpty ? "" : " (now: \(field.value))"):\n")
            return askChoice(field.options, enter: field.value.isEmpty ? nil : Self.keeps).map { $0.map { .text(field.options[$0]) } }
        case .choices:
            write("\(field.label)\(field.picked.isEmpty ? "" : " (now: \(field.picked.joined(separator: ", ")))"):\n")
            writeNumbered(field.options)
            return askLine(
                "Enter the numbers of your choices separated by commas, for example 1,3",
                enter: field.picked.isEmpty ? nil : Self.keeps
            ) { answer in
                // None picked: the flow's own rule says what is wanted ("Pick at least one topic.").
                if answer.isEmpty { return .list([]) }
                let numbers = answer.split(separator: ",").map { Int(String($0).trimmingWhitespace) }
                guard !numbers.isEmpty, numbers.allSatisfy({ $0.map { (1...field.options.count).contains($0) } ?? false }) else {
                    return nil
                }
                let picked = Set(numbers.compactMap { $0 }.map { field.options[$0 - 1] })
                return .list(field.options.filter(picked.contains))
            }
        case .parsed(let prompt, let parse):
            return askLine(prompt, enter: Self.keeps, parse: parse)
        case .text:
            // A refused answer is not offered as the one to keep: it is quoted as refused.
            let shown =
                field.isPassword || field.value.isEmpty ? "" : field.error != nil ? " (refused: \(field.value))" : " [\(field.value)]"
            let hint = field.isPassword && !field.value.isEmpty ? " [Enter keeps the one typed]" : ""
            write("\(field.label)\(shown)\(hint): ")
            guard let answer = readLine(field.isPassword) else { return nil }
            if field.isPassword, isatty(0) == 1 { write("\n") }  // no echo, not even of Enter
            return answer.isEmpty ? .some(nil) : .text(answer)
        }
    }

    /// What Enter alone does at a prompt that has a value already.
    private static let keeps = "Enter keeps it"

    private func writeNumbered(_ items: [String]) {
        write(items.enumerated().map { "  \($0.offset + 1)) \($0.element)\n" }.joined())
    }

    /// A numbered list, answered with a number (0-based result); `enter` says what Enter
    /// alone does, if anything (`.some(nil)` then).
    private func askChoice(_ items: [String], enter: String?) -> Int?? {
        writeNumbered(items)
        // One item: "between 1 and 1" read as a riddle (issue 32).
        let prompt = items.count == 1 ? "Enter 1" : "Enter a number between 1 and \(items.count)"
        return askLine(prompt, enter: enter) { answer in
            Int(answer).flatMap { (1...items.count).contains($0) ? $0 - 1 : nil }
        }
    }

    /// Asks until `parse` accepts the answer; nil at the end of input; `.some(nil)` when
    /// Enter alone is allowed (`enter` says what it does) and given.
    private func askLine<T>(_ prompt: String, enter: String?, parse: (String) -> T?) -> T?? {
        while true {
            write(prompt + (enter.map { " (\($0))" } ?? "") + ": ")
            if pollOvertakes() {
                overtaken = true
                return .some(nil)
            }
            guard let answer = readLine(false)?.trimmingWhitespace else { return nil }
            if answer.isEmpty, enter != nil { return .some(nil) }
            if let value = parse(answer) { return value }
            write(prompt + ".\n")
        }
    }

    /// A screen that polls (a sign-in approved in a browser) goes on by itself: while a
    /// question waits for its answer, the clock ticks and the poll runs. True when the
    /// flow moved on (another screen, the code expired) before anything was typed.
    private func pollOvertakes() -> Bool {
        guard let input, state.calls.poll != nil else { return false }
        let screen = state.screenID
        while session.ending == nil {
            var typed = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            if poll(&typed, 1, 0) > 0 { return false }
            _ = session.wait(input: input, milliseconds: 250)
            session.dispatch(.tick)
            if state.screenID != screen || (state.calls.poll == nil && !state.isBusy) { return true }
        }
        return true
    }
}
