/// An input on a form screen. Its value lives in the flow context under `id`.
public struct Field: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case text, email, password, phone, code
        /// `YYYY-MM-DD`, today by default; Left/Right change the day, PageUp/PageDown the
        /// month, Home/End the year.
        case date
        /// A service address: `http(s)://…` or `mock://local`.
        case url
        /// One of `options`; Left/Right or a letter changes it.
        case select
        /// Any of `options` (pills); Left/Right move, Space toggles. The value is a list.
        case multi
        /// A whole number from `min` to `max`; Left/Right, PageUp/PageDown, or digits.
        case slider
        /// Two whole numbers `low-high` from `min` to `max`; Space switches handle.
        case range
    }

    public var id: String
    public var kind: Kind
    public var label: String
    public var placeholder: String
    /// Longest value accepted; longer input (a paste) is cut with a message.
    public var maxLength: Int
    public var rules: [Rule]
    /// Select and multi fields: what can be picked.
    public var options: [String] = []
    /// Select and multi fields: a context list to pick from instead (filled by a call).
    public var optionsFrom: String?
    /// Multi fields: an option that stands alone ("No preference"): picking it clears the
    /// others, and picking another clears it.
    public var exclusive: String?
    /// Slider and range fields: the bounds.
    public var minimum = 0
    public var maximum = 100
    /// The value before the user changes it (a slider's starting point).
    public var initial: String?
    /// Date fields: show the age the date gives, beside it.
    public var showsAge = false
    /// Code fields: press the screen's first button once every box is filled.
    public var submitsWhenFull = false

    public init(id: String, kind: Kind = .text, label: String, placeholder: String = "", maxLength: Int = 256, rules: [Rule] = []) {
        self.id = id
        self.kind = kind
        self.label = label
        self.placeholder = placeholder
        self.maxLength = maxLength
        self.rules = rules
    }
}

/// A named validation rule with its parameter and the exact message the spec gives.
public struct Rule: Sendable, Equatable {
    public enum Name: String, Sendable, CaseIterable {
        case required
        case minLength = "min_length"
        case maxLength = "max_length"
        case email
        case digits
        case matches
        /// A number above zero, decimals allowed (`5`, `7.5`), written as people write
        /// numbers (no `1e9`, `inf` or `0x10`).
        case positiveNumber = "positive_number"
        /// `http://` or `https://` with a host, or `mock://local`; no spaces.
        case url
        /// A real `YYYY-MM-DD` date.
        case date
        /// A date no later than today.
        case notFuture = "not_future"
        /// Letters of any script and spaces only.
        case letters
        /// A person's name as people write theirs: letters of any script with their marks,
        /// spaces, hyphens, apostrophes and full stops (`Mary-Jane O'Neil`).
        case personName = "person_name"
        /// Letters of any script, digits and spaces only.
        case alphanumeric
        /// A national phone number: 4 to 14 digits; with `field` (the country picker on
        /// the same screen), also a number the service takes (E.164, `InputRules`).
        case phone
        /// A date of birth at least / at most this many years ago.
        case minAge = "min_age"
        case maxAge = "max_age"
        /// Slider and range: the (low) number is at least this.
        case minValue = "min_value"
        /// A typed number (decimals allowed) is at most this: 1440 minutes, not 1e9.
        case maxValue = "max_value"
        /// Range: the high number is not below the low one.
        case ordered
        /// Multi: at least this many picked.
        case minSelected = "min_selected"
        /// A password not among the most common (the list the service refuses too,
        /// `InputRules`), nor one character repeated.
        case notCommon = "not_common"

        /// What the parameter must be, for the loader and linter.
        public var parameter: ParameterKind {
            switch self {
            case .required, .email, .positiveNumber, .url, .date, .notFuture, .letters, .personName, .alphanumeric, .ordered, .notCommon:
                .none
            case .minLength, .maxLength, .digits, .minAge, .maxAge, .minValue, .maxValue, .minSelected: .count
            case .matches: .fieldID
            case .phone: .optionalFieldID
            }
        }
    }

    public enum ParameterKind: Sendable { case none, count, fieldID, optionalFieldID }

    public var name: Name
    public var count: Int?
    public var field: String?
    public var message: String

    public init(_ name: Name, count: Int? = nil, field: String? = nil, message: String) {
        self.name = name
        self.count = count
        self.field = field
        self.message = message
    }
}
