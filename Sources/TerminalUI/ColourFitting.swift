/// Maps a theme colour (0–255) onto what a terminal has: 256 colours as they are, and on
/// 16- or 8-colour terminals the nearest basic colour (xterm's cube and grey ramp).
public enum ColourFitting {
    public static func fit(_ colour: Int, available: Int) -> Int {
        if colour < available { return colour }
        if colour < 16 { return colour - 8 }  // bright -> its normal colour
        if colour >= 232 { return colour < 244 ? 0 : 7 }  // grey ramp: black or white
        let cube = colour - 16
        let (red, green, blue) = (cube / 36, (cube / 6) % 6, cube % 6)
        let basic = (red >= 3 ? 1 : 0) | (green >= 3 ? 2 : 0) | (blue >= 3 ? 4 : 0)
        if basic == 0, max(red, green, blue) >= 2 { return 8 < available ? 8 : 7 }  // dim colour: grey
        return basic
    }
}

/// A frame as ANSI-coloured text, for `onboard themes NAME` to preview a theme without
/// starting curses.
public enum ANSIPreview {
    public static func render(_ frame: Frame, theme: Theme) -> String {
        var output = ""
        for y in 0..<frame.height {
            var current: Role?
            for x in 0..<frame.width {
                let cell = frame[x, y]
                if cell.role != current {
                    output += sgr(theme.style(cell.role))
                    current = cell.role
                }
                output += cell.text
            }
            output += "\u{1B}[0m\n"
        }
        return output
    }

    static func sgr(_ style: Theme.Style) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        if let foreground = style.foreground { codes.append("38;5;\(foreground)") }
        if let background = style.background { codes.append("48;5;\(background)") }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
