import Foundation
import OutpostDevice
import Testing

/// The device's side: no password over plain HTTP to another machine.
@Suite("Server address")
struct ServerAddressTests {
    @Test(
        "device-refuses-plain-http: http:// is accepted only for this machine, https:// everywhere, the switch allows it"
    )
    func plainHTTPRefused() {
        for accepted in [
            "https://checkin.example.org", "https://10.0.0.5:8443", "http://127.0.0.1:8080", "http://localhost:8080",
            "http://[::1]:8080",
        ] {
            #expect(ServerAddress.refusal(URL(string: accepted)!) == nil, "\(accepted)")
        }
        for refused in ["http://checkin.example.org", "http://10.0.0.5:8080", "http://192.168.1.20"] {
            let message = ServerAddress.refusal(URL(string: refused)!)
            #expect(message?.contains("https://") == true, "\(refused)")
            #expect(ServerAddress.refusal(URL(string: refused)!, allowingInsecureHTTP: true) == nil)
        }
        #expect(ServerAddress.refusal(URL(string: "ftp://x.example.org")!) != nil)
    }
}

@Suite("Server address in the engine")
struct ServerAddressEngineTests {
    @Test("device-refuses-plain-http-engine: signing in to http:// on another machine sends nothing and says why")
    @MainActor
    func engineSendsNothing() async throws {
        try await DeviceLab.run { lab in
            let (app, box) = try lab.launch("remote", wrapping: { RecordingTransport($0) })
            await app.signIn(
                server: URL(string: "http://checkin.example.org:8080")!, email: "alex@acme.test",
                password: DeviceLab.staffPassword)
            #expect(!app.isSignedIn)
            #expect(box.value?.requests.isEmpty ?? true, "the password never left the device")
            let error = app.tree().element(UIIdentifier.signInError)?.text ?? ""
            #expect(error.contains("https://"), "\(error)")
            // The loopback server of the lab is plain http:// and accepted.
            await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            #expect(app.isSignedIn)
        }
    }
}
