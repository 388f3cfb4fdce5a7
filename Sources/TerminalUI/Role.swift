/// What a cell is, for the theme to style: the renderer never picks colours itself.
public enum Role: String, Sendable, CaseIterable, Hashable {
    case background
    case text
    case title
    case muted
    case accent
    case logo
    case border
    case button
    case buttonFocused = "button_focused"
    /// A text link under the buttons ("Already have an account? Log in").
    case link
    case option
    case optionFocused = "option_focused"
    case input
    case inputFocused = "input_focused"
    case error
    case notice
    case spinner
    case help
    /// A QR code's modules: dark on light whatever the terminal's own colours, or a phone
    /// would read an inverted code.
    case qrCode = "qr_code"
}
