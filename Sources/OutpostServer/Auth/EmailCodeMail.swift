import Foundation

/// The mail queue's side of code sign-in: a queued code request becomes a new code and the mail
/// that carries it, made when the sender takes the request, so asking for a code costs the same
/// whether or not the e-mail has an account.
enum EmailCodeMail {
    /// The preparer for both code purposes (``MailQueue/Preparer``): nil (nothing is sent) for
    /// a sign-in code asked for an e-mail no account has. The code goes only to the address
    /// stored on the account (or, for a new account, the address it will have), never to the
    /// form typed: a look-alike that folds to a worker's address must not receive that
    /// worker's code.
    static func preparer(store: Store) -> MailQueue.Preparer {
        { request, now, relay in
            let account = try await store.user(email: request.to)
            if account == nil, request.purpose == .signInCode { return nil }
            let code = EmailCodeRoutes.newCode()
            let message = MailMessage(
                from: request.from, to: account?.email ?? request.to,
                subject: account != nil ? "Your Outpost sign-in code" : "Your Outpost code to create your account",
                body: EmailCodeRoutes.body(code: code, existing: account != nil))
            let rendered = try message.rendered(date: now, messageID: relay.newMessageID())
            try await store.storeEmailCode(
                email: request.to, hash: try await store.emailCodeHash(email: request.to, code: code), now: now,
                lifetime: EmailCodeRoutes.codeLifetime, mailId: request.id, to: message.to, rendered: rendered)
            var mail = request
            mail.to = message.to
            mail.rendered = rendered
            mail.expiresAt = now + EmailCodeRoutes.codeLifetime
            return mail
        }
    }
}
