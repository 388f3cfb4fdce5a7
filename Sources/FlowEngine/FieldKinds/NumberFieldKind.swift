import CivilCalendar
import InputRules
import ScreenTable

/// A slider (one number) or a range (two handles; Space switches the active one):
/// Left/Right step by 1, PgUp/PgDn by 5, Home/End to the ends; digits typed set the
/// number, always within its bounds.
struct NumberFieldKind: FieldKind {
    var widget: FieldWidget { .slider }
    var keepsWithinBounds: Bool { true }

    func keys(for view: ScreenView.FieldView) -> [KeyHint] {
        view.kind == .range
            ? [KeyHint("←/→", "adjust"), KeyHint("Space", "other end")] : [KeyHint("←/→", "adjust"), KeyHint("0-9", "type")]
    }

    var takesPageKeys: Bool { true }

    func initialValue(of field: Field, today: CivilDate) -> Value? {
        if field.kind == .slider { return .text(field.initial ?? String((field.minimum + field.maximum) / 2)) }
        return .text(field.initial ?? NumberRange(low: field.minimum, high: field.maximum).description)
    }

    func move(_ intent: Intent, in field: Field, _ state: inout FlowState, engine: FlowEngine, today: CivilDate) -> KeyResult {
        let step =
            switch intent {
            case .left: -1
            case .right: 1
            case .pageUp: 5
            case .pageDown: -5
            case .home: Int.min / 2
            case .end: Int.max / 2
            default: 0
            }
        guard step != 0 else { return .ignored }
        state.form.stopTypingNumber()
        setNumber(field, &state) { value in value + step }
        state.form.clearError(under: field.id)
        return .changed
    }

    func type(_ text: String, into field: Field, _ state: inout FlowState, engine: FlowEngine) -> Typing {
        for key in text {
            if key == " ", field.kind == .range {
                state.form.place(cursor: 1 - (state.form.cursor[field.id] ?? 0), in: field.id)
                state.form.stopTypingNumber()
            } else if key.isASCIIDigit {
                typeDigit(key, into: field, &state)
            }
        }
        state.form.clearError(under: field.id)
        return .typed
    }

    /// Backspace drops the last digit typed.
    func deleteBackward(in field: Field, _ state: inout FlowState, engine: FlowEngine) {
        let typed = state.form.typingNumber == field.id ? state.form.typedDigits : String(number(of: field, state))
        let digits = String(typed.dropLast())
        state.form.typeNumber(in: field.id, digits: digits)
        setNumber(field, &state) { _ in Int(digits) ?? field.minimum }
    }

    func question(for view: ScreenView.FieldView) -> LineQuestion {
        let (minimum, maximum) = (view.minimum, view.maximum)
        if view.kind == .slider {
            return .parsed(prompt: "\(view.label) (now: \(view.value)). Enter a number between \(minimum) and \(maximum)") { answer in
                guard let number = Int(answer), (minimum...maximum).contains(number) else { return nil }
                return .text(String(number))
            }
        }
        return .parsed(prompt: "\(view.label) (now: \(view.value)). Enter two numbers between \(minimum) and \(maximum) as LOW-HIGH") {
            answer in
            let parts = answer.split(separator: "-").map { Int(String($0).trimmingWhitespace) }
            guard parts.count == 2, let low = parts[0], let high = parts[1] else { return nil }
            return .text(NumberRange(low: low, high: high).description)
        }
    }

    /// A digit typed: it adds to the digits typed so far while some number in the
    /// widget's range starts with them, else starts a new number; a digit no number in
    /// range starts with is ignored. The value, the readout and the knob stay within the
    /// range and agree (typing 2 on 18-99 shows 18 until a second digit makes 25; 540
    /// there stops at 54).
    private func typeDigit(_ digit: Character, into field: Field, _ state: inout FlowState) {
        let typed = state.form.typingNumber == field.id ? state.form.typedDigits : ""
        let candidates = [typed + String(digit), String(digit)]
        guard let digits = candidates.first(where: { Self.someNumber(from: field.minimum, to: field.maximum, startsWith: $0) }) else {
            return
        }
        state.form.typeNumber(in: field.id, digits: digits)
        setNumber(field, &state) { _ in Int(digits) ?? field.minimum }
    }

    static func someNumber(from minimum: Int, to maximum: Int, startsWith digits: String) -> Bool {
        guard let typed = Int(digits), minimum <= maximum else { return false }
        if typed > maximum { return false }
        if digits.count > 1, digits.first == "0" { return false }
        // The smallest and largest numbers with these leading digits, length by length.
        var low = typed, high = typed
        while low <= maximum {
            if high >= minimum { return true }
            guard low != 0 else { return false }
            low *= 10
            high = high * 10 + 9
        }
        return false
    }

    /// A slider's value, or a range's active handle.
    private func number(of field: Field, _ state: FlowState) -> Int {
        let text = state.context[field.id]?.text ?? ""
        if field.kind == .slider { return Int(text) ?? field.minimum }
        let range = NumberRange(text) ?? NumberRange(low: field.minimum, high: field.maximum)
        return state.form.cursor[field.id] == 1 ? range.high : range.low
    }

    /// Changes a slider's number or a range's active handle, always within its bounds.
    private func setNumber(_ field: Field, _ state: inout FlowState, _ change: (Int) -> Int) {
        let clamp = { (value: Int) in min(field.maximum, max(field.minimum, value)) }
        let text = state.context[field.id]?.text ?? ""
        if field.kind == .slider {
            let value = Int(text) ?? field.minimum
            state.context.answer(field.id, .text(String(clamp(change(value)))))
            return
        }
        var range = NumberRange(text) ?? NumberRange(low: field.minimum, high: field.maximum)
        if state.form.cursor[field.id] == 1 {
            range.high = clamp(change(range.high))
        } else {
            range.low = clamp(change(range.low))
        }
        state.context.answer(field.id, .text(range.description))
    }
}
