/// The identity providers of social sign-in, as the wire names them.
public enum SocialProvider {
    /// The audience ID tokens must be issued for: the client id Onboard registers with
    /// each provider (the mock provider's tokens and the service's check agree on it).
    public static let clientAudience = "org.onboard.client"

    /// "google" → "Google": the name a person reads on a button or in a message.
    public static func displayName(_ provider: String) -> String {
        provider.prefix(1).uppercased() + provider.dropFirst()
    }

    /// Social sign-in on a service with no identity provider set up: a plain refusal,
    /// not "could not be verified", which would send the person round again.
    public static func unavailable(_ provider: String) -> ServiceError {
        ServiceError(.notFound, "Sign in with \(displayName(provider)) is not available on this server. Use another way to sign in.")
    }
}
