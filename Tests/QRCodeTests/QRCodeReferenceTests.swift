import Foundation
import QRCode
import TestSupport
import Testing

/// Our QR codes against two maintained third parties from PyPI: module for module
/// against Project Nayuki's `qrcodegen` (whose algorithm ours follows: the same text,
/// version, level and mask make the same code, and we choose the version and mask it
/// chooses), and read back by `zxing-cpp`, the ZXing decoder phones' apps are built on.
@Suite struct QRCodeReferenceTests {
    struct Case: Codable {
        var text: String
        var level: String
        var version: Int?
        var mask: Int?
    }

    struct Drawn: Codable {
        var version: Int
        var mask: Int
        var rows: [String]
    }

    static let levels: [(String, QRCode.ErrorCorrection)] = [("LOW", .low), ("MEDIUM", .medium), ("QUARTILE", .quartile), ("HIGH", .high)]

    static func python(_ script: String, _ argument: some Encodable) throws -> Data {
        let json = String(decoding: try JSONEncoder().encode(argument), as: UTF8.self)
        let run = Subprocess.run("/usr/bin/env", ["python3", "-c", script, json])
        try #require(run.status == 0, "qrcodegen, zxing-cpp and numpy from PyPI (.ci/run installs them): \(run.output.suffix(600))")
        return Data(run.output.utf8)
    }

    /// Each case as qrcodegen draws it (alphanumeric when the text allows, as ours).
    static let nayuki = #"""
        import json, sys
        from qrcodegen import QrCode, QrSegment
        out = []
        for case in json.loads(sys.argv[1]):
            text = case["text"]
            segment = QrSegment.make_alphanumeric(text) if QrSegment.is_alphanumeric(text) else QrSegment.make_bytes(text.encode("utf-8"))
            version = case.get("version")
            mask = case.get("mask")
            q = QrCode.encode_segments([segment], getattr(QrCode.Ecc, case["level"]), version or 1, version or 40, -1 if mask is None else mask, False)
            out.append({"version": q.get_version(), "mask": q.get_mask(),
                        "rows": ["".join("1" if q.get_module(x, y) else "0" for x in range(q.get_size())) for y in range(q.get_size())]})
        print(json.dumps(out))
        """#

    /// Each matrix drawn as an image with a quiet zone and read by zxing-cpp.
    static let zxing = #"""
        import json, sys
        import numpy as np, zxingcpp
        out = []
        for rows in json.loads(sys.argv[1]):
            n, quiet, scale = len(rows), 4, 4
            image = np.full(((n + 2 * quiet) * scale,) * 2, 255, dtype=np.uint8)
            for y, row in enumerate(rows):
                for x, module in enumerate(row):
                    if module == "1":
                        image[(y + quiet) * scale:(y + quiet + 1) * scale, (x + quiet) * scale:(x + quiet + 1) * scale] = 0
            found = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
            out.append(found[0].text if found else None)
        print(json.dumps(out))
        """#

    static func rows(_ code: QRCode) -> [String] {
        code.modules.map { row in String(row.map { $0 ? "1" : "0" }) }
    }

    static let texts = [
        "HTTP://127.0.0.1:8080/D/BCDF-GHJK", "https://onboard.example.org/device?user_code=BCDF-GHJK", "A",
        String(repeating: "https://example.org/long/", count: 12), "ünïcödé → 🙂",
    ]

    @Test func everyMaskAndLevelIsQrcodegensCode() throws {
        var cases: [Case] = []
        var ours: [QRCode] = []
        for text in Self.texts.prefix(2) {
            for (name, level) in Self.levels {
                for version in [2, 4, 7, 10] {
                    for mask in 0..<8 {
                        guard let code = try? QRCode(text, errorCorrection: level, version: version, mask: mask) else { continue }
                        cases.append(Case(text: text, level: name, version: version, mask: mask))
                        ours.append(code)
                    }
                }
            }
        }
        #expect(cases.count > 150, "most versions hold both texts at every level")
        let drawn = try JSONDecoder().decode([Drawn].self, from: try Self.python(Self.nayuki, cases))
        for (code, reference) in zip(ours, drawn) {
            #expect(Self.rows(code) == reference.rows, "version \(code.version) level \(code.errorCorrection) mask \(code.mask)")
        }
    }

    @Test func theChosenVersionAndMaskAreQrcodegensAndZXingReadsThem() throws {
        var cases: [Case] = []
        var ours: [QRCode] = []
        for text in Self.texts {
            for (name, level) in Self.levels {
                cases.append(Case(text: text, level: name))
                ours.append(try QRCode(text, errorCorrection: level))
            }
        }
        let drawn = try JSONDecoder().decode([Drawn].self, from: try Self.python(Self.nayuki, cases))
        for (code, reference) in zip(ours, drawn) {
            #expect(
                code.version == reference.version && code.mask == reference.mask,
                "\(code.errorCorrection): ours v\(code.version) mask \(code.mask), qrcodegen v\(reference.version) mask \(reference.mask)")
            #expect(Self.rows(code) == reference.rows)
        }
        let read = try JSONDecoder().decode([String?].self, from: try Self.python(Self.zxing, ours.map(Self.rows)))
        #expect(read == cases.map(\.text))
    }

    @Test func textTooLongForAnyVersionIsRefused() {
        #expect(throws: QRCode.TooLong.self) { try QRCode(String(repeating: "x", count: 3000), errorCorrection: .high) }
    }
}
