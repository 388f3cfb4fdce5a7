import Foundation
import TerminalUI
import Testing

/// Letters without their accents for a terminal that shows only ASCII, checked against
/// Foundation's canonical decomposition (ICU's), which the renderer no longer links.
@Suite struct ASCIITextTests {
    /// Latin-1, Latin Extended-A and -B, and Latin Extended Additional (Vietnamese's
    /// letters with two marks among them).
    static let letters: [Character] = (Array(0xC0...0x24F) + Array(0x1E00...0x1EFF)).compactMap(Unicode.Scalar.init)
        .filter(\.properties.isAlphabetic).map(Character.init)

    @Test func eachLetterFoldsAsItsCanonicalDecompositionDoes() {
        let differing = Self.letters.filter { letter in
            let reference =
                String(letter).decomposedStringWithCanonicalMapping.unicodeScalars.first(where: \.isASCII)
                .map { String(Character($0)) } ?? "?"
            return ASCIIText.fold(String(letter)) != reference
        }
        #expect(Self.letters.count > 500)
        #expect(differing.isEmpty, "\(differing.map { "\($0) → \(ASCIIText.fold(String($0)))" })")
    }

    @Test func wordsKeepTheirLetters() {
        #expect(ASCIIText.fold("Ấn Độ · Ørsted · café") == "An ?o - ?rsted - cafe", "Đ and Ø have no decomposition: as before, `?`")
    }
}
