import CivilCalendar
import InputRules
import ScreenTable

/// A date: today to start with, Left/Right a day, PgUp/PgDn a month, Home/End a year,
/// never past today; digits typed replace it, dashes added as they go (19900514 ->
/// 1990-05-14); a full date typed or pasted (2025/02/03 too) replaces what is there, and
/// Ctrl-U empties it. A date of birth shows the age it gives.
struct DateFieldKind: FieldKind {
    /// Typing is the quick way to a date of birth; the steps drop out first.
    func keys(for view: ScreenView.FieldView) -> [KeyHint] {
        [
            KeyHint("0-9", "type"), KeyHint("Ctrl-U", "clear"), KeyHint("←/→", "day"), KeyHint("PgUp/PgDn", "month"),
            KeyHint("Home/End", "year"),
        ]
    }

    var takesPageKeys: Bool { true }

    func initialValue(of field: Field, today: CivilDate) -> Value? {
        .text(today.description)
    }

    func move(_ intent: Intent, in field: Field, _ state: inout FlowState, engine: FlowEngine, today: CivilDate) -> KeyResult {
        state.form.stopTypingNumber()
        let current = CivilDate(state.context[field.id]?.text ?? "") ?? today
        let moved: CivilDate =
            switch intent {
            case .left: current.adding(days: -1)
            case .right: current.adding(days: 1)
            case .pageUp: current.adding(months: 1)
            case .pageDown: current.adding(months: -1)
            case .end: current.adding(months: 12)
            default: current.adding(months: -12)
            }
        state.answer(field.id, .text(min(moved, today).description))
        return .changed
    }

    func type(_ text: String, into field: Field, _ state: inout FlowState, engine: FlowEngine) -> Typing {
        let digits = text.filter(\.isASCIIDigit)
        guard !digits.isEmpty else { return .typed }
        var typed = state.form.typingNumber == field.id ? (state.context[field.id]?.text ?? "").filter(\.isASCIIDigit) : ""
        // A date already whole, or a whole one arriving at once, starts afresh: typing over
        // a full date was ignored (issue 32).
        if typed.count >= 8 || digits.count >= 8 { typed = "" }
        state.form.typeNumber(in: field.id)
        state.answer(field.id, .text(Self.dashed(String((typed + digits).prefix(8)))))
        return .typed
    }

    /// Any kill, backward or forward, empties a date (it is one word) for digits typed
    /// afresh: Ctrl-U, Ctrl-K, Ctrl-W, Alt-Backspace, Alt-D.
    func edit(_ command: TextEdit, in field: Field, _ state: inout FlowState) -> Bool {
        guard [.deleteToStart, .deleteToEnd, .deleteWordBackward, .deleteToBlankBackward, .deleteWordForward].contains(command) else {
            return false
        }
        state.form.typeNumber(in: field.id)
        state.answer(field.id, .text(""))
        return true
    }

    /// Backspace drops the last digit.
    func deleteBackward(in field: Field, _ state: inout FlowState, engine: FlowEngine) {
        let digits = (state.context[field.id]?.text ?? "").filter(\.isASCIIDigit)
        state.form.typeNumber(in: field.id)
        state.context.answer(field.id, .text(Self.dashed(String(digits.dropLast()))))
    }

    func decorate(_ view: inout ScreenView.FieldView, of field: Field, _ state: FlowState, engine: FlowEngine, today: CivilDate) {
        guard field.showsAge, let born = CivilDate(view.value) else { return }
        view.hint = "Age \(max(0, born.age(on: today)))"
    }

    func question(for view: ScreenView.FieldView) -> LineQuestion {
        .parsed(prompt: "\(view.label) (now: \(view.value)\(view.hint.map { ", \($0)" } ?? "")). Enter a date as YYYY-MM-DD") { answer in
            CivilDate(answer).map { .text($0.description) }
        }
    }

    /// `YYYY-MM-DD` from up to eight digits.
    static func dashed(_ digits: String) -> String {
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index == 4 || index == 6 { text.append("-") }
            text.append(digit)
        }
        return text
    }
}
