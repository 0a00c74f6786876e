/// Every error answer: `{"error": "<code>", "message": "<human text>"}` plus optional fields.
public struct ErrorBody: Codable, Sendable, Hashable {
    public var error: String
    public var message: String
    /// For `weak_passcode`: every rule the passcode breaks.
    public var rules: [String]?
    /// For `two_factor_required`: the sign-in's challenge, sent back with the code.
    public var challenge: String?

    public init(error: String, message: String, rules: [String]? = nil, challenge: String? = nil) {
        self.error = error
        self.message = message
        self.rules = rules
        self.challenge = challenge
    }
}
