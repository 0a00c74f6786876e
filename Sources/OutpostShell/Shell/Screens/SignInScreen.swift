/// The sign-in form, with the last attempt's error in words.
package struct SignInScreen: ScreenModel {
    package var error: String?
    package var notice: String? = nil

    package var identifier: String { UIIdentifier.signIn }

    package func elements() -> [UIElement] {
        var elements = [
            UIElement(UIIdentifier.signIn, "Sign in to Outpost"), UIElement(UIIdentifier.signInEmail, "E-mail"),
            UIElement(UIIdentifier.signInPassword, "Password"), UIElement(UIIdentifier.signInSubmit, "Sign in"),
        ]
        elements.append(UIElement(UIIdentifier.signInEmailCode, "Sign in with a code by e-mail"))
        elements.append(UIElement(UIIdentifier.signInSingleSignOn, "Sign in with single sign-on"))
        if let notice { elements.append(UIElement(UIIdentifier.signInNotice, notice)) }
        if let error { elements.append(UIElement(UIIdentifier.signInError, error)) }
        return elements
    }
}
