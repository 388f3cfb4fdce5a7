import FlowEngine
import Foundation
import InputRules
import ScreenTable
import TestSupport
import Testing

/// Issue 32: ABBY took `14155550199` and `+1 (415) 555-0199` as eleven national digits
/// and sent `+114155550199`; thirteen national digits were accepted. Each country in the
/// picker is checked against Google's numbering plans, through Python's `phonenumbers`
/// (a port of libphonenumber, from PyPI): example mobile and fixed-line numbers written
/// nationally (with the trunk prefix) and internationally (pasted with their +) become
/// the same E.164, and lengths either side of each are possible exactly when the
/// reference says so.
@Suite struct PhoneNumberReferenceTests {
    struct Case: Decodable {
        let option: String
        let typed: String
        /// The reference's E.164 for what was typed; nil for a length variant.
        let e164: String?
        /// Whether the reference calls the number possible for a mobile or fixed line.
        let possible: Bool
    }

    static let generator = #"""
        import json, sys, phonenumbers as p
        from phonenumbers import PhoneNumberFormat as F, PhoneNumberType as T
        regions = {"1": ["US", "CA"]}
        def possible(number):
            # A whole number a mobile or fixed line can have (not one dialled only locally).
            return any(p.is_possible_number_for_type_with_reason(number, t) == p.ValidationResult.IS_POSSIBLE for t in (T.MOBILE, T.FIXED_LINE))
        cases = []
        for option in json.loads(sys.argv[1]):
            code = option.split()[0][1:]
            for region in regions.get(code, [p.region_code_for_country_code(int(code))]):
                for kind in (T.MOBILE, T.FIXED_LINE):
                    example = p.example_number_for_type(region, kind)
                    if example is None:
                        continue
                    nsn = p.national_significant_number(example)
                    for typed in (p.format_number(example, F.NATIONAL), p.format_number(example, F.INTERNATIONAL)):
                        number = p.parse(typed, region)
                        cases.append({"option": option, "typed": typed, "e164": p.format_number(number, F.E164), "possible": possible(number)})
                    for variant in (nsn[:-2], nsn[:-1], nsn + "5", nsn + "55", nsn + "555"):
                        number = p.parse("+" + code + variant, None)
                        cases.append({"option": option, "typed": "+" + code + variant, "e164": None, "possible": possible(number)})
        print(json.dumps(cases))
        """#

    @Test func everyCountryInThePickerAgreesWithLibphonenumber() throws {
        let options = try #require(BuiltinFlows.load("abby").screen("phone")?.fields.first { $0.id == "country" }?.options)
        let optionsJSON = String(decoding: try JSONEncoder().encode(options), as: UTF8.self)
        let run = Subprocess.run("/usr/bin/env", ["python3", "-c", Self.generator, optionsJSON])
        try #require(run.status == 0, "phonenumbers from PyPI (.ci/run installs it): \(run.output.suffix(400))")
        let cases = try JSONDecoder().decode([Case].self, from: Data(run.output.utf8))
        #expect(cases.count > 200)
        for item in cases {
            if let e164 = item.e164 {
                // Typed or pasted as a person would, into ABBY's phone field with the country picked.
                let typed = PhoneNumber.typed(item.typed, country: item.option, options: options)
                let number = try #require(PhoneNumber(country: typed.country, digits: typed.digits))
                #expect(number.e164 == e164, "\(item.option): '\(item.typed)' is \(e164)")
                #expect(
                    (InputRules.e164(number.e164) != nil) == item.possible, "\(item.option): '\(item.typed)' possible: \(item.possible)")
            } else {
                // The service takes 8 to 15 digits, country code included (E.164's cap, and
                // the API's documented floor); the reference's lengths go beyond both (a
                // German number of 5 or 15 national digits).
                let possible = item.possible && (8...15).contains(item.typed.count - 1)
                #expect((InputRules.e164(item.typed) != nil) == possible, "\(item.option): \(item.typed) possible: \(possible)")
            }
        }
    }

    /// Issue 47: `123` under +1 was drawn `1 (23`. A trunk 1 typed first keeps the area
    /// code's bracket until its third digit, as libphonenumber's as-you-type formatter does.
    @Test func aTrunkOneTypedFirstIsWrittenAsLibphonenumberWritesIt() throws {
        let script =
            "import sys, phonenumbers as p\nfor typed in sys.argv[1:]:\n f = p.AsYouTypeFormatter('US')\n out = ''\n for c in typed: out = f.input_digit(c)\n print(out)"
        let prefixes = ["123", "1234", "141555", "14155550199"]
        let run = Subprocess.run("/usr/bin/env", ["python3", "-c", script] + prefixes)
        let reference = run.output.split(separator: "\n").map(String.init)
        try #require(reference.count == prefixes.count, "phonenumbers from PyPI: \(run.output)")
        #expect(prefixes.map { PhoneNumber.formatted($0, countryCode: "1") } == reference)
    }

    @Test func theIssuesNumbersAreReadAsTheirOwners() {
        let us = "+1 United States / Canada"
        #expect(PhoneNumber(country: us, digits: "14155550199")?.e164 == "+14155550199")
        #expect(PhoneNumber(country: us, digits: "+1 (415) 555-0199")?.e164 == "+14155550199")
        #expect(PhoneNumber.formatted("14155550199", countryCode: "1") == "1 (415) 555-0199")
        #expect(PhoneNumber.formatted("447700900123", countryCode: "44") == "+44 7700 900123")
        #expect(InputRules.e164("+114155550199") == nil, "eleven national digits in North America")
        #expect(InputRules.e164("+4477009001234") == nil, "eleven in the UK")
        // Pasted with a +: the code picks the country, "(0)" and all.
        let pasted = PhoneNumber.typed("+44 (0)7700 900123", country: us, options: [us, "+44 United Kingdom"])
        #expect(pasted.country == "+44 United Kingdom" && pasted.digits == "7700900123")
        // Our own conveniences beyond the reference's parsing: dialled from abroad, or the
        // code without its + where the number is otherwise too long.
        #expect(PhoneNumber(country: "+44 United Kingdom", digits: "00447700900123")?.e164 == "+447700900123")
        #expect(PhoneNumber(country: us, digits: "0014155550199")?.e164 == "+14155550199")
        #expect(PhoneNumber(country: "+44 United Kingdom", digits: "447700900123")?.e164 == "+447700900123")
        #expect(PhoneNumber(country: "+39 Italy", digits: "0612345678")?.e164 == "+390612345678", "Italy keeps its 0")
    }
}
