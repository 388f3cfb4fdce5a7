import FlowEngine

/// Which widget draws a field's value, by kind (each in `Widgets/`): a text box, a
/// picker, pills, a slider or two-handle range, or a row of code boxes.
extension Renderer {
    func valueLines(_ field: ScreenView.FieldView, width: Int) -> [Line] {
        switch field.kind {
        case .select: [selectLine(field, width: width)]
        case .multi: pillLines(field, width: width)
        case .slider, .range: [sliderLine(field, width: width)]
        case .code: [codeLine(field, width: width)]
        case .text, .email, .password, .url, .phone, .date: [withHint(inputLine(field, width: width), field.hint, width: width)]
        }
    }
}
