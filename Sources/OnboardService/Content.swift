import ServiceAPI

/// Content the flows show: motivational messages for OKLah's Home.
extension OnboardService {
    public func motivation(accessToken: String) async throws -> String {
        _ = try await authenticate(accessToken)
        return WordLibrary.motivations.randomElement()!
    }
}
