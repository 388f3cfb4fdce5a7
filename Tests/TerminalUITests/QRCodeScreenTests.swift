import FlowEngine
import Foundation
import ScreenTable
import TerminalUI
import TestSupport
import Testing

/// Issue 34: the device sign-in's page as a QR code a phone can read from the terminal:
/// drawn in half blocks at 80x24 and read back by zxing-cpp (PyPI) from the cells as a
/// camera would see them, dark terminal around; left out where it would not fit whole,
/// and in plain ASCII, where the address and code are what there is.
@Suite struct QRCodeScreenTests {
    static let address = "HTTP://192.168.1.20:8080/D/BCDF-GHJK"

    static func view() -> ScreenView {
        var view = ScreenView()
        view.kind = .info
        view.title = "Sign in with Google"
        view.body = "Open \(address) on any device and enter BCDF-GHJK."
        view.qr = address
        view.buttons = [ScreenView.ItemView(label: "Cancel", focused: true)]
        return view
    }

    /// The QR cells as modules: each half block is an upper and a lower module.
    static func modules(_ frame: Frame) -> [[Bool]] {
        var rows: [[Bool]] = []
        for y in 0..<frame.height {
            let cells = (0..<frame.width).map { frame[$0, y] }.filter { $0.role == .qrCode }
            guard !cells.isEmpty else { continue }
            rows.append(cells.map { $0.text == "█" || $0.text == "▀" })
            rows.append(cells.map { $0.text == "█" || $0.text == "▄" })
        }
        return rows
    }

    static let zxing = #"""
        import json, sys
        import numpy as np, zxingcpp
        rows = json.loads(sys.argv[1])
        n, border, scale = len(rows[0]), 6, 6
        # The terminal around the code is dark: only the code's own quiet zone is light.
        image = np.zeros(((len(rows) + 2 * border) * scale, (n + 2 * border) * scale), dtype=np.uint8)
        for y, row in enumerate(rows):
            for x, dark in enumerate(row):
                if not dark:
                    image[(y + border) * scale:(y + border + 1) * scale, (x + border) * scale:(x + border + 1) * scale] = 255
        found = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
        print(json.dumps(found[0].text if found else None))
        """#

    @Test func at80x24TheCodeIsDrawnWholeAndReadsAsTheAddress() throws {
        let frame = Renderer(glyphs: .unicode).render(Self.view(), width: 80, height: 24)
        let modules = Self.modules(frame)
        try #require(!modules.isEmpty, "\(frame.text)")
        #expect(frame.text.contains("BCDF-GHJK") && frame.text.contains("Cancel"), "\(frame.text)")
        let json = String(decoding: try JSONEncoder().encode(modules), as: UTF8.self)
        let run = Subprocess.run("/usr/bin/env", ["python3", "-c", Self.zxing, json])
        try #require(run.status == 0, "zxing-cpp and numpy from PyPI (.ci/run installs them): \(run.output.suffix(400))")
        #expect(try JSONDecoder().decode(String?.self, from: Data(run.output.utf8)) == Self.address)
    }

    @Test(arguments: [(40, 12), (60, 20)])
    func whereItWouldNotFitWholeOnlyTheTextIsShown(width: Int, height: Int) {
        let frame = Renderer(glyphs: .unicode).render(Self.view(), width: width, height: height)
        #expect(Self.modules(frame).isEmpty)
        #expect(frame.text.contains("Sign in with Google"))
    }

    @Test func inPlainASCIIThereIsNoCode() {
        let frame = Renderer(glyphs: .plain).render(Self.view(), width: 80, height: 24)
        #expect(Self.modules(frame).isEmpty)
        #expect(!frame.text.contains("▀") && !frame.text.contains("█"))
    }
}

extension QRCodeScreenTests {
    /// What QA reads in the snapshot: the code beside the text at 80x24.
    @Test func theCodeStandsBesideTheText() {
        let frame = Renderer(glyphs: .unicode).render(Self.view(), width: 80, height: 24)
        assertSnapshot(frame, named: "device-sign-in-80x24", themes: [])
    }
}
