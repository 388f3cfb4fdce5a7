import CivilCalendar
import InputRules
import ScreenTable

/// How keys change the value widgets: dates, selects, pills, sliders and ranges, and the
/// digit-only code and phone fields.
extension FlowEngine {
    /// The field with its options filled from the context when it takes them from there.
    func resolved(_ field: Field, _ state: FlowState) -> Field {
        guard let key = field.optionsFrom else { return field }
        var field = field
        field.options = state.context[key]?.list ?? []
        return field
    }

    /// The value a widget starts with on arrival when the context has none.
    func initialValue(of field: Field, now: Int64, _ state: FlowState) -> Value? {
        switch field.kind {
        case .date: .text(today(now, state).description)
        case .select: field.initial.map(Value.text)
        case .multi: .list([])
        case .slider: .text(field.initial ?? String((field.minimum + field.maximum) / 2))
        case .range: .text(field.initial ?? NumberRange(low: field.minimum, high: field.maximum).description)
        default: nil
        }
    }

    /// Left/Right, PageUp/PageDown, Home/End on a value widget; false when the field
    /// does not take them (so Left/Right can move along buttons instead).
    func adjust(_ field: Field, _ intent: Intent, _ state: inout FlowState, now: Int64) -> Bool {
        let field = resolved(field, state)
        switch field.kind {
        case .date:
            state.form.typingNumber = nil
            adjustDate(field, intent, &state, now: now)
        case .select:
            guard intent == .left || intent == .right, !field.options.isEmpty else { return false }
            let current = field.options.firstIndex(of: state.context[field.id]?.text ?? "")
            let count = field.options.count
            let next = current.map { ($0 + (intent == .right ? 1 : count - 1)) % count } ?? (intent == .right ? 0 : count - 1)
            state.context[field.id] = .text(field.options[next])
        case .multi:
            guard intent == .left || intent == .right || intent == .home || intent == .end, !field.options.isEmpty else { return false }
            let current = state.form.cursor[field.id] ?? 0
            state.form.cursor[field.id] = switch intent {
            case .left: max(0, current - 1)
            case .right: min(field.options.count - 1, current + 1)
            case .home: 0
            default: field.options.count - 1
            }
            return true
        case .slider, .range:
            let step = switch intent {
            case .left: -1
            case .right: 1
            case .pageUp: 5
            case .pageDown: -5
            case .home: Int.min / 2
            case .end: Int.max / 2
            default: 0
            }
            guard step != 0 else { return false }
            state.form.typingNumber = nil
            setNumber(field, &state) { value in value + step }
        default:
            return false
        }
        state.form.errors[field.id] = nil
        return true
    }

    enum WidgetTyping: Equatable {
        /// The field takes text as it is.
        case notAWidget
        case typed
        /// Typed, but cut to the field's limit (the field says so).
        case cut
    }

    /// Text typed or pasted into a value widget or a digits-only field.
    func typeIntoWidget(_ field: Field, _ text: String, _ state: inout FlowState) -> WidgetTyping {
        let field = resolved(field, state)
        switch field.kind {
        case .select:
            // A letter jumps to the next option starting with it.
            guard let letter = text.first?.lowercased(), !field.options.isEmpty else { return .typed }
            let current = field.options.firstIndex(of: state.context[field.id]?.text ?? "") ?? -1
            let order = field.options.indices.map { (current + 1 + $0) % field.options.count }
            if let match = order.first(where: { field.options[$0].lowercased().hasPrefix(letter) }) {
                state.context[field.id] = .text(field.options[match])
                state.form.errors[field.id] = nil
            }
        case .multi:
            // Keys typed quickly arrive together: each is its own press.
            for key in text {
                if key == " " {
                    toggle(field, at: state.form.cursor[field.id] ?? 0, &state)
                } else if let match = field.options.firstIndex(where: { $0.lowercased().hasPrefix(key.lowercased()) }) {
                    state.form.cursor[field.id] = match
                }
            }
        case .slider, .range:
            for key in text {
                if key == " ", field.kind == .range {
                    state.form.cursor[field.id] = 1 - (state.form.cursor[field.id] ?? 0)
                    state.form.typingNumber = nil
                } else if key.isASCIIDigit {
                    typeDigit(key, into: field, &state)
                }
            }
            state.form.errors[field.id] = nil
        case .date:
            // Digits typed replace the date, dashes added as they go: 19900514 -> 1990-05-14.
            let digits = text.filter(\.isASCIIDigit)
            guard !digits.isEmpty else { return .typed }
            let typed = state.form.typingNumber == field.id ? (state.context[field.id]?.text ?? "").filter(\.isASCIIDigit) : ""
            state.form.typingNumber = field.id
            state.context[field.id] = .text(Self.dashedDate(String((typed + digits).prefix(8))))
            state.form.errors[field.id] = nil
        case .code, .phone:
            // Digits only, so a pasted "123 456" or "(555) 010-9999" lands as digits.
            return insert(String(text.filter(\.isASCIIDigit)), into: field, unit: "digits", &state) ? .cut : .typed
        default:
            return .notAWidget
        }
        return .typed
    }

    /// `YYYY-MM-DD` from up to eight digits.
    static func dashedDate(_ digits: String) -> String {
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index == 4 || index == 6 { text.append("-") }
            text.append(digit)
        }
        return text
    }

    /// Backspace in a slider or range: drops the last digit typed; in a date, a digit.
    func deleteInWidget(_ field: Field, _ state: inout FlowState) -> Bool {
        if field.kind == .date {
            let digits = (state.context[field.id]?.text ?? "").filter(\.isASCIIDigit)
            state.form.typingNumber = field.id
            state.context[field.id] = .text(Self.dashedDate(String(digits.dropLast())))
            return true
        }
        guard field.kind == .slider || field.kind == .range else {
            return field.kind == .select || field.kind == .multi
        }
        let typed = state.form.typingNumber == field.id ? state.form.typedDigits : String(number(of: field, state))
        let digits = String(typed.dropLast())
        state.form.typingNumber = field.id
        state.form.typedDigits = digits
        setNumber(field, &state) { _ in Int(digits) ?? field.minimum }
        return true
    }

    /// A digit typed into a slider or range: it adds to the digits typed so far while
    /// some number in the widget's range starts with them, else starts a new number; a
    /// digit no number in range starts with is ignored. The value, the readout and the
    /// knob stay within the range and agree (typing 2 on 18-99 shows 18 until a second
    /// digit makes 25; 540 there stops at 54).
    private func typeDigit(_ digit: Character, into field: Field, _ state: inout FlowState) {
        let typed = state.form.typingNumber == field.id ? state.form.typedDigits : ""
        let candidates = [typed + String(digit), String(digit)]
        guard let digits = candidates.first(where: { Self.someNumber(from: field.minimum, to: field.maximum, startsWith: $0) }) else { return }
        state.form.typingNumber = field.id
        state.form.typedDigits = digits
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

    private func toggle(_ field: Field, at index: Int, _ state: inout FlowState) {
        guard field.options.indices.contains(index) else { return }
        let option = field.options[index]
        var picked = state.context[field.id]?.list ?? []
        if let position = picked.firstIndex(of: option) {
            picked.remove(at: position)
        } else if option == field.exclusive {
            picked = [option]
        } else {
            picked.removeAll { $0 == field.exclusive }
            picked.append(option)
        }
        // Kept in the order the options are listed.
        state.context[field.id] = .list(field.options.filter(picked.contains))
        state.form.errors[field.id] = nil
    }

    /// Changes a slider's number or a range's active handle, always within its bounds.
    private func setNumber(_ field: Field, _ state: inout FlowState, _ change: (Int) -> Int) {
        let clamp = { (value: Int) in min(field.maximum, max(field.minimum, value)) }
        let text = state.context[field.id]?.text ?? ""
        if field.kind == .slider {
            let value = Int(text) ?? field.minimum
            state.context[field.id] = .text(String(clamp(change(value))))
            return
        }
        var range = NumberRange(text) ?? NumberRange(low: field.minimum, high: field.maximum)
        if state.form.cursor[field.id] == 1 {
            range.high = clamp(change(range.high))
        } else {
            range.low = clamp(change(range.low))
        }
        state.context[field.id] = .text(range.description)
    }

    /// Left/Right a day, PageUp/PageDown a month, Home/End a year; never past today.
    private func adjustDate(_ field: Field, _ intent: Intent, _ state: inout FlowState, now: Int64) {
        let today = today(now, state)
        let current = CivilDate(state.context[field.id]?.text ?? "") ?? today
        let moved: CivilDate = switch intent {
        case .left: current.adding(days: -1)
        case .right: current.adding(days: 1)
        case .pageUp: current.adding(months: 1)
        case .pageDown: current.adding(months: -1)
        case .end: current.adding(months: 12)
        default: current.adding(months: -12)
        }
        state.context[field.id] = .text(min(moved, today).description)
    }
}
