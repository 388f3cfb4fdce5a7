import FlowEngine
import QRCode
import Synchronization

/// A QR code in half blocks: each character is two modules, the upper and the lower, so
/// a code is as tall as it is wide on a terminal's 1:2 cells. Dark on light in its own
/// role with a quiet zone of two modules, so a phone reads it on any terminal's colours.
extension Renderer {
    static let qrQuietZone = 2
    /// The code last drawn: a screen is drawn on every key and tick, its address not
    /// changing, and choosing a mask takes milliseconds.
    private static let lastQRCode = Mutex<(text: String, code: QRCode?)?>(nil)

    static func qrCode(for text: String) -> QRCode? {
        lastQRCode.withLock { last in
            if let last, last.text == text { return last.code }
            let code = try? QRCode(text, errorCorrection: .low)
            last = (text, code)
            return code
        }
    }

    /// The body beside the code (the code on the right, the text wrapped to its left),
    /// or under it when there is no room beside; just the body without a code.
    func bodyAndQRLines(_ view: ScreenView, width: Int) -> [Line] {
        guard let rows = qrRows(view, width: width) else { return bodyLines(view, width: width) }
        let side = TextMetrics.width(of: rows[0])
        let room = width - side - 2
        guard room >= 20 else {
            return bodyLines(view, width: width) + rows.map { Line(spans: [($0, .qrCode)], alignment: .center) } + [.spacer]
        }
        let text = view.body.isEmpty ? [] : wrapped(view.body, role: .text, width: room, kind: .fixed)
        return (0..<max(rows.count, text.count)).map { index in
            let words = index < text.count ? text[index].spans.map(\.text).joined() : ""
            let code = index < rows.count ? rows[index] : ""
            let padding = String(repeating: " ", count: max(0, width - TextMetrics.width(of: words) - TextMetrics.width(of: code)))
            return Line(spans: [(words, .text), (padding, .text), (code, .qrCode)])
        } + [.spacer]
    }

    /// The code's rows of half blocks (a light quiet zone included); nil without one, or
    /// when it is wider than `width`. Level L: a screen is clean, and the smaller code fits.
    func qrRows(_ view: ScreenView, width: Int) -> [String]? {
        guard let text = view.qr, let code = Self.qrCode(for: text) else { return nil }
        let side = code.size + 2 * Self.qrQuietZone
        guard side <= width else { return nil }
        func dark(_ x: Int, _ y: Int) -> Bool {
            let (mx, my) = (x - Self.qrQuietZone, y - Self.qrQuietZone)
            return (0..<code.size).contains(mx) && (0..<code.size).contains(my) && code.modules[my][mx]
        }
        return stride(from: 0, to: side, by: 2).map { y in
            String(
                (0..<side).map { x -> Character in
                    switch (dark(x, y), y + 1 < side && dark(x, y + 1)) {
                    case (true, true): "█"
                    case (true, false): "▀"
                    case (false, true): "▄"
                    case (false, false): " "
                    }
                })
        }
    }
}
