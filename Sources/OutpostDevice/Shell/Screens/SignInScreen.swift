/// The sign-in form, with the last attempt's error in words.
struct SignInScreen: ScreenModel {
    var error: String?

    var identifier: String { UIIdentifier.signIn }

    func elements() -> [UIElement] {
        var elements = [
            UIElement(UIIdentifier.signIn, "Sign in to Outpost"), UIElement(UIIdentifier.signInEmail, "E-mail"),
            UIElement(UIIdentifier.signInPassword, "Password"), UIElement(UIIdentifier.signInSubmit, "Sign in"),
        ]
        if let error { elements.append(UIElement(UIIdentifier.signInError, error)) }
        return elements
    }
}
