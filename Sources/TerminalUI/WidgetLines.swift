import FlowEngine

/// The widget a field's kind asks for (each in `Widgets/`): a text box, a row of code
/// boxes, a picker, pills, or a slider (or two-handle range).
extension Renderer {
    func valueLines(_ field: ScreenView.FieldView, width: Int) -> [Line] {
        switch field.kind.widget {
        case .picker: [selectLine(field, width: width)]
        case .pills: pillLines(field, width: width)
        case .slider: [sliderLine(field, width: width)]
        case .codeBoxes: [codeLine(field, width: width)]
        case .textBox: [withHint(inputLine(field, width: width), field.hint, width: width)]
        }
    }
}
