import CivilCalendar
import InputRules
import ScreenTable

/// Phone and code fields: digits only, edited like text, so a pasted "123 456" or
/// "(555) 010-9999" lands as digits; a phone number is shown grouped as its country
/// writes it.
struct DigitsFieldKind: FieldKind {
    /// A code's boxes, one per digit; a phone number's line.
    let boxes: Bool

    var editsAsText: Bool { true }
    var widget: FieldWidget { boxes ? .codeBoxes : .textBox }

    func keys(for view: ScreenView.FieldView) -> [KeyHint] { TextFieldKind().keys(for: view) }

    func move(_ intent: Intent, in field: Field, _ state: inout FlowState, engine: FlowEngine, today: CivilDate) -> KeyResult {
        TextFieldKind().move(intent, in: field, &state, engine: engine, today: today)
    }

    func type(_ text: String, into field: Field, _ state: inout FlowState, engine: FlowEngine) -> Typing {
        var digits = String(text.filter(\.isASCIIDigit))
        if field.kind == .phone, let country = countryField(engine, state) {
            // A number pasted with its + and country code: the code goes to the picker.
            let typed = PhoneNumber.typed(text, country: state.context[country.id]?.text ?? "", options: country.options)
            if typed.country != state.context[country.id]?.text { state.context.answer(country.id, .text(typed.country)) }
            digits = typed.digits
        }
        return engine.insert(digits, into: field, unit: "digits", &state) ? .cut : .typed
    }

    /// The country picker on the phone's screen: a select whose options start `+CODE`.
    private func countryField(_ engine: FlowEngine, _ state: FlowState) -> Field? {
        engine.currentScreen(state)?.fields.first { $0.kind == .select && $0.options.contains { $0.hasPrefix("+") } }
    }

    func deleteBackward(in field: Field, _ state: inout FlowState, engine: FlowEngine) {
        TextFieldKind().deleteBackward(in: field, &state, engine: engine)
    }

    func decorate(_ view: inout ScreenView.FieldView, of field: Field, _ state: FlowState, engine: FlowEngine, today: CivilDate) {
        view.caret = engine.editor(for: field, state).cursor
        guard field.kind == .phone else { return }
        // Grouped as typed, for the country picked on the same screen.
        let country = countryField(engine, state)
        let code = country.flatMap { state.context[$0.id]?.text }.flatMap { PhoneNumber(country: $0, digits: "") }?.countryCode ?? ""
        view.value = PhoneNumber.formatted(view.value, countryCode: code)
        view.caret = view.caret.map { Self.position(afterDigits: $0, in: view.value) }
    }

    /// Where the cursor goes in grouped digits: before the digit that follows the first
    /// `count`, or at the end.
    static func position(afterDigits count: Int, in grouped: String) -> Int {
        var seen = 0
        for (index, character) in grouped.enumerated() where character.isASCIIDigit {
            if seen == count { return index }
            seen += 1
        }
        return grouped.count
    }

    func question(for view: ScreenView.FieldView) -> LineQuestion { .text }
}
