import Mustache

/// The console's pages as Mustache templates (swift-mustache: logic-less, and `{{value}}` is
/// HTML-escaped, so a guest named `<img src=x onerror=…>` is text on every page). Compiled once
/// into the binary: no template files to ship beside it. `{{{content}}}` is the one unescaped
/// value: a page the library has already rendered (and escaped).
enum ConsoleTemplates {
    /// A labelled input whose value is `{{form.name}}` and whose refusal shows beside it (and
    /// marks it invalid for a screen reader).
    static func input(
        _ label: String, type: String, name: String, id: String, form: String = "form",
        errors: String = "formErrors", attributes: String = ""
    ) -> String {
        let error = "\(errors).\(name)"
        return """
            <label>\(label) <input type="\(type)" name="\(name)" id="\(id)" value="{{\(form).\(name)}}"\(attributes)\
            {{#\(error)}} aria-invalid="true" aria-describedby="\(id)-error"{{/\(error)}}>\
            {{#\(error)}} <span class="field-error" id="\(id)-error">{{\(error)}}</span>{{/\(error)}}</label>
            """
    }

    /// A refused form's sentence that names none of its fields, above the form.
    static func formError(_ key: String = "formError", id: String) -> String {
        "{{#\(key)}}<p class=\"error\" role=\"alert\" id=\"\(id)\">{{\(key)}}</p>{{/\(key)}}"
    }

    static let layout = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} · Outpost</title>
        <link rel="stylesheet" href="/admin/static/console.css">
        </head>
        <body{{#bodyClass}} class="{{bodyClass}}"{{/bodyClass}}>
        <a class="skip" href="#main" id="skip-link">Skip to the page</a>
        <header class="bar">
        <a class="brand" href="/admin/events">Outpost</a>
        {{#signedIn}}
        <nav class="sections" aria-label="Console"><a href="/admin/events" id="events-nav"{{#eventsCurrent}} aria-current="page"{{/eventsCurrent}}>Events</a>{{#organizer}}<a href="/admin/staff" id="staff-nav"{{#staffCurrent}} aria-current="page"{{/staffCurrent}}>Staff</a><a href="/admin/contacts" id="mentoring-nav"{{#mentoringCurrent}} aria-current="page"{{/mentoringCurrent}}>Mentoring</a><a href="/admin/devices" id="devices-nav"{{#devicesCurrent}} aria-current="page"{{/devicesCurrent}}>Devices</a><a href="/admin/settings" id="settings-nav"{{#settingsCurrent}} aria-current="page"{{/settingsCurrent}}>Settings</a>{{/organizer}}<a href="/admin/two-factor" id="two-factor-nav"{{#twoFactorCurrent}} aria-current="page"{{/twoFactorCurrent}}>Two-factor</a></nav>
        <form class="signout" method="post" action="/admin/signout">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <span class="who">{{#userName}}<span id="signed-in-user">{{userName}}</span> · {{/userName}}<span class="role" id="signed-in-role">{{role}}</span></span>
        <button type="submit" id="signout">Sign out</button>
        </form>
        {{/signedIn}}
        </header>
        <main id="main" tabindex="-1">
        {{#notice}}<p class="notice" id="notice">{{notice}}</p>{{/notice}}
        {{#error}}<p class="error" id="error">{{error}}</p>{{/error}}
        {{{content}}}
        </main>
        </body>
        </html>
        """

    static let signIn = """
        <h1>Sign in</h1>
        <form method="post" action="/admin/signin" class="card narrow">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label>E-mail <input type="email" name="email" id="email" value="{{email}}" required autofocus></label>
        <label>Password <input type="password" name="password" id="password" required></label>
        <button type="submit" id="signin">Sign in</button>
        </form>
        <form method="post" action="/admin/sso" class="card narrow" id="sso-form">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label>Your work e-mail <input type="email" name="email" id="sso-email" value="{{email}}" required></label>
        <button type="submit" id="sso">Sign in with single sign-on</button>
        </form>
        """

    static let signInCode = """
        <h1>Sign in</h1>
        <form method="post" action="/admin/signin/code" class="card narrow" id="code-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="challenge" value="{{challenge}}">
        <label>Code from your authenticator app <input type="text" name="code" id="code" autocomplete="one-time-code" required autofocus></label>
        <p class="hint">Six digits, or one of your recovery codes (XXXXX-XXXXX) if the phone is not at hand.</p>
        <button type="submit" id="code-signin">Sign in</button>
        </form>
        """

    /// A mailed password link's page: the new password, twice (the link's token in the form).
    static let password = """
        <h1>Choose a password</h1>
        {{#token}}
        <form method="post" action="/admin/password" class="card narrow" id="password-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="token" value="{{token}}">
        <label>New password <input type="password" name="password" id="new-password" autocomplete="new-password" minlength="8" required autofocus></label>
        <label>The same again <input type="password" name="repeat" id="repeat-password" autocomplete="new-password" minlength="8" required></label>
        <p class="hint">At least 8 characters. Every device you are signed in on asks for the new one.</p>
        <button type="submit" id="set-password">Set the password</button>
        </form>
        {{/token}}
        {{^token}}<p id="password-link-missing">This page needs the link from your mail: open it again, or ask an organizer for a new one.</p>{{/token}}
        """

    /// The tenant's devices, each with its name form.
    static let devices = """
        <h1>Devices</h1>
        <p class="hint">Each phone, tablet or kiosk as it last reported after a sync. A name shows on the dashboards instead of its id.</p>
        {{#hasDevices}}
        <table class="list" id="devices">
        <thead><tr><th>Name</th><th>Device</th><th>Signed in</th><th>Last contact</th><th>Not sent</th></tr></thead>
        <tbody>
        {{#devices}}
        <tr{{#attention}} class="attention"{{/attention}}><td><form method="post" action="/admin/devices/{{id}}/name" class="inline-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="text" name="name" class="device-name" value="{{name}}" maxlength="{{maxName}}" placeholder="Door 2" aria-label="Name of device {{label}}">
        <button type="submit" class="device-name-save">Save</button></form></td><td><code>{{id}}</code></td><td>{{user}}</td><td><time datetime="{{lastContactAt}}">{{lastContact}}</time></td><td class="device-pending">{{pending}}</td></tr>
        {{/devices}}
        </tbody>
        </table>
        {{/hasDevices}}
        {{^hasDevices}}<p class="hint empty" id="devices-empty">No device has reported yet: each one appears here after its first sync at an event (or, for mentors and care workers, after signing in).</p>{{/hasDevices}}
        """

    static let twoFactor = """
        <h1>Two-factor sign-in</h1>
        {{#enabled}}
        <p id="two-factor-state">On: every sign-in with your password asks for a code from your authenticator app. {{recoveryCodesLeft}} recovery code(s) left.</p>
        {{/enabled}}
        {{^enabled}}
        <p id="two-factor-state">Off: your password alone signs you in.{{#required}} Your organisation requires it: turn it on to go on.{{/required}}</p>
        <form method="post" action="/admin/two-factor" class="card narrow" id="enroll-form">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label>Your password <input type="password" name="password" id="enroll-password" autocomplete="current-password" required></label>
        <button type="submit" id="enroll">Turn on</button>
        </form>
        {{/enabled}}
        """

    static let twoFactorSetup = """
        <h1>Two-factor sign-in</h1>
        <ol>
        <li>In your authenticator app, add an account with this key (time-based, six digits):
        <p class="secret" id="two-factor-secret" data-secret="{{rawSecret}}">{{secret}}</p>
        <p class="hint">or open <a href="{{uri}}" id="two-factor-uri">this link</a> on the phone.</p></li>
        <li>Type the code it shows:
        <form method="post" action="/admin/two-factor/confirm" class="card narrow" id="confirm-form">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label>Code <input type="text" name="code" id="confirm-code" inputmode="numeric" autocomplete="one-time-code" required></label>
        <button type="submit" id="confirm-two-factor">Turn on</button>
        </form></li>
        </ol>
        """

    static let twoFactorCodes = """
        <h1>Two-factor sign-in is on</h1>
        <p>Keep these recovery codes somewhere safe: each signs you in once without the app. They are shown only now.</p>
        <ul class="codes" id="recovery-codes">{{#codes}}<li><code>{{.}}</code></li>{{/codes}}</ul>
        <p><a href="/admin/events" id="codes-done">I have kept them: on to the events</a></p>
        """

    static let singleSignOn = """
        <h1>Sign in</h1>
        <div class="card narrow">
        <p>{{email}} signs in with {{name}}.</p>
        <p><a class="button" id="sso-start" href="{{start}}">Sign in with {{name}}</a></p>
        <p><a href="/admin/signin">Use another e-mail</a></p>
        </div>
        """

    static let singleSignOnDone = """
        <h1>Signed in</h1>
        <p class="card narrow">Signed in as {{name}}. <a id="sso-continue" href="/admin/events">Continue to the events</a>.</p>
        """

    static let events = """
        <h1>Events</h1>
        <h2 id="upcoming-title">Upcoming and running</h2>
        <table class="list" id="events" aria-labelledby="upcoming-title">
        <thead><tr><th>Event</th><th>Starts</th><th>Ends</th><th>Time zone</th>{{#showCounts}}<th>Checked in</th>{{/showCounts}}</tr></thead>
        <tbody>
        {{#events}}
        <tr><td><a href="/admin/events/{{id}}">{{name}}</a></td><td>{{starts}}</td><td>{{ends}}</td><td>{{timeZone}}</td>{{#showCounts}}<td class="event-counts">{{#counts}}{{checkedIn}} of {{guests}}{{/counts}}</td>{{/showCounts}}</tr>
        {{/events}}
        {{^events}}<tr><td colspan="5">{{#isExhibitor}}As an exhibitor you work your booths, below.{{/isExhibitor}}{{#isBlockManager}}You name the tickets of your blocks, below.{{/isBlockManager}}{{^isExhibitor}}{{^isBlockManager}}{{#hasPast}}No upcoming event: create one below, or clone a past one from its page.{{/hasPast}}{{^hasPast}}No events yet: {{#canCreate}}create the first one below.{{/canCreate}}{{^canCreate}}an organizer puts you on an event's staff.{{/canCreate}}{{/hasPast}}{{/isBlockManager}}{{/isExhibitor}}</td></tr>{{/events}}
        </tbody>
        </table>
        {{#hasPast}}
        <h2 id="past-title">Past</h2>
        <table class="list" id="past-events" aria-labelledby="past-title">
        <thead><tr><th>Event</th><th>Starts</th><th>Ends</th><th>Time zone</th>{{#showCounts}}<th>Checked in</th>{{/showCounts}}</tr></thead>
        <tbody>
        {{#past}}
        <tr><td><a href="/admin/events/{{id}}">{{name}}</a></td><td>{{starts}}</td><td>{{ends}}</td><td>{{timeZone}}</td>{{#showCounts}}<td class="event-counts">{{#counts}}{{checkedIn}} of {{guests}}{{/counts}}</td>{{/showCounts}}</tr>
        {{/past}}
        </tbody>
        </table>
        {{/hasPast}}
        {{#isExhibitor}}<h2>Your booths</h2>
        <ul id="my-booths">{{#booths}}<li><a href="/admin/booths/{{id}}/leads">{{name}}</a> · {{event}}</li>{{/booths}}{{^booths}}<li>You are on no booth yet: the organizer adds you.</li>{{/booths}}</ul>{{/isExhibitor}}
        {{#isBlockManager}}<h2>Your ticket blocks</h2>
        <ul id="my-blocks">{{#blocks}}<li><a href="/admin/ticket-blocks/{{id}}">{{partner}}</a> · {{event}} · {{named}} of {{size}} named</li>{{/blocks}}{{^blocks}}<li>You manage no block yet: the organizer allocates one to you.</li>{{/blocks}}</ul>{{/isBlockManager}}
        {{#canCreate}}
        <h2>New event</h2>
        <form method="post" action="/admin/events" class="card" id="new-event">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        {{> eventFields}}
        <button type="submit" id="create-event">Create event</button>
        </form>
        <script src="/admin/static/events.js"></script>
        {{/canCreate}}
        """

    static let eventFields = """
        \(formError(id: "event-form-error"))
        \(input("Name", type: "text", name: "name", id: "event-name", attributes: " required"))
        \(input("Starts", type: "datetime-local", name: "startsAt", id: "event-starts", attributes: " required"))
        \(input("Ends", type: "datetime-local", name: "endsAt", id: "event-ends", attributes: " required"))
        \(input("Time zone", type: "text", name: "timeZone", id: "event-zone",
            attributes: #" list="zones" required{{#browserZone}} data-browser-zone="true"{{/browserZone}}"#))
        <datalist id="zones">{{#zones}}<option value="{{.}}">{{/zones}}</datalist>
        <p class="hint">Times are the event's own, in its time zone.</p>
        """

    static let event = """
        <p class="crumbs"><a href="/admin/events">Events</a> ›</p>
        <h1 id="event-title">{{event.name}}</h1>
        <p class="event-facts"><span id="event-when">{{event.starts}} – {{event.ends}}</span> · <span id="event-zone-shown">{{event.timeZone}}</span>{{#counts}} · <span id="event-counts">{{guests}} guests, {{checkedIn}} checked in</span>{{/counts}}</p>
        <nav class="tabs">
        <a href="/admin/events/{{event.id}}/guests" id="guests-link">Guests</a>
        <a href="/admin/events/{{event.id}}/import" id="import-link">Import guests</a>
        {{#canWatch}}<a href="/admin/events/{{event.id}}/audit" id="audit-link">Audit log</a>
        <a href="/admin/events/{{event.id}}/checkins.csv" id="checkins-csv-link">Check-ins (CSV)</a>
        <a href="/admin/events/{{event.id}}/walkins" id="walkins-link">Walk-ins</a>
        <a href="/admin/events/{{event.id}}/badge" id="badge-link">Badge</a>
        <a href="/admin/events/{{event.id}}/zones" id="zones-link">Zones (EFx)</a>
        <a href="/admin/events/{{event.id}}/pickup" id="pickup-link">Pickup (EFx)</a>
        <a href="/admin/events/{{event.id}}/booths" id="booths-link">Booths (EFx)</a>
        <a href="/admin/events/{{event.id}}/ticket-blocks" id="ticket-blocks-link">Ticket blocks</a>{{/canWatch}}
        {{#canWatch}}<a href="/admin/events/{{event.id}}/dashboard" id="dashboard-link">Doors (live)</a>{{/canWatch}}
        {{#canEdit}}<a href="/admin/events/{{event.id}}/tickets.pdf" id="tickets-link">Tickets (PDF)</a>{{/canEdit}}
        </nav>
        <section>
        <h2>Access types</h2>
        <ul id="access-types">
        {{#accessTypes}}<li>{{name}}{{#walkInAllowed}} <span class="tag">walk-in allowed</span>{{/walkInAllowed}}{{#walkInCapacity}} <span class="tag">{{walkInCapacity}} walk-in places</span>{{/walkInCapacity}}</li>{{/accessTypes}}
        {{^accessTypes}}<li>None yet: add one below; every guest has one, and the doors show it.</li>{{/accessTypes}}
        </ul>
        {{#canEdit}}
        <form method="post" action="/admin/events/{{event.id}}/access-types" class="card inline" id="new-access-type">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        \(formError("accessTypeError", id: "access-type-error"))
        \(input("Name", type: "text", name: "name", id: "access-type-name", form: "accessType",
            errors: "accessTypeErrors", attributes: " required"))
        <label class="check"><input type="checkbox" name="walkInAllowed" value="true" id="access-type-walkin"{{#accessType.walkInAllowed}} checked{{/accessType.walkInAllowed}}> walk-in allowed</label>
        \(input("Walk-in places", type: "number", name: "walkInCapacity", id: "access-type-capacity", form: "accessType",
            errors: "accessTypeErrors", attributes: #" min="0" placeholder="no limit""#))
        <button type="submit" id="add-access-type">Add access type</button>
        </form>
        {{/canEdit}}
        </section>
        <section>
        <h2>Guest fields</h2>
        <ul id="guest-field-list">
        {{#guestFields}}<li><span class="guest-field-label">{{label}}</span> · {{kind}}{{#choices}} {{choices}}{{/choices}}
        {{#canEdit}}<form method="post" action="/admin/events/{{event.id}}/guest-fields/{{id}}/remove" class="inline-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><button type="submit" class="link remove-guest-field">remove</button></form>{{/canEdit}}</li>{{/guestFields}}
        {{^guestFields}}<li>None: guests have a name, an e-mail, an access type and notes. Add a field below for anything else the door should see (a T-shirt size, dietary needs).</li>{{/guestFields}}
        </ul>
        {{#canEdit}}
        <form method="post" action="/admin/events/{{event.id}}/guest-fields" class="card inline" id="new-guest-field">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label>Label <input type="text" name="label" id="guest-field-label" maxlength="60" required></label>
        <label>Holds <select name="kind" id="guest-field-kind"><option value="text">text</option><option value="choice">one of some choices</option><option value="checkbox">a checkbox (yes or no)</option></select></label>
        <label>Choices <input type="text" name="choices" id="guest-field-choices" placeholder="S, M, L (for a choice)"></label>
        <button type="submit" id="add-guest-field">Add field</button>
        </form>
        <p class="hint">The import reads a column headed by a field's label; the attendee CSV has one per field.</p>
        {{/canEdit}}
        </section>
        {{#showStaff}}
        <section>
        <h2>Staff</h2>
        <ul id="event-staff">
        {{#staff}}<li><span class="staff-name">{{name}}</span> · {{email}} · <span class="staff-role">{{role}}</span>
        {{#canOrganize}}<form method="post" action="/admin/events/{{event.id}}/staff" class="inline-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="userId" value="{{id}}">{{^eventOrganizer}}<input type="hidden" name="role" value="organizer"><button type="submit" class="link staff-organize">make this event's organizer</button>{{/eventOrganizer}}{{#eventOrganizer}}<button type="submit" class="link staff-unorganize">back to their own role</button>{{/eventOrganizer}}</form>{{/canOrganize}}
        {{#canTeam}}<form method="post" action="/admin/events/{{event.id}}/staff/{{id}}/remove" class="inline-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><button type="submit" class="link">take off</button></form>{{/canTeam}}</li>{{/staff}}
        {{^staff}}<li>Nobody is on this event's staff yet: put door staff on it below, and their devices see the event.</li>{{/staff}}
        </ul>
        {{#canTeam}}
        <form method="post" action="/admin/events/{{event.id}}/staff" class="card inline" id="assign-staff">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label>User <select name="userId" id="assign-user" required><option value="" selected>Choose a user…</option>{{#users}}<option value="{{id}}">{{name}} ({{role}})</option>{{/users}}</select></label>
        <label>As <select name="role" id="assign-role"><option value="" selected>their own role</option><option value="organizer">this event's organizer (check-in staff, support)</option></select></label>
        <button type="submit" id="assign">Put on staff</button>
        </form>
        <p class="hint">This event's organizer edits it, its guests and its check-ins, and no other event.</p>
        {{/canTeam}}
        </section>
        <section>
        <h2>Kiosk</h2>
        <p id="kiosk-state">{{#kioskOrientation}}Set up, {{kioskOrientation}}.{{/kioskOrientation}}{{^kioskOrientation}}Not set up.{{/kioskOrientation}}</p>
        <form method="post" action="/admin/events/{{event.id}}/kiosk" class="card" id="kiosk-form">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <p class="hint">The exit passcode staff type to leave kiosk mode. The server refuses one that breaks a rule:</p>
        <ul class="rules">{{#passcodeRules}}<li>{{.}}</li>{{/passcodeRules}}</ul>
        <label>Passcode <input type="password" name="passcode" id="kiosk-passcode" inputmode="numeric" autocomplete="off" required></label>
        <label>Orientation <select name="orientation" id="kiosk-orientation"><option value="portrait">portrait</option><option value="landscape">landscape</option></select></label>
        <button type="submit" id="save-kiosk">Save the kiosk</button>
        </form>
        </section>
        {{/showStaff}}
        {{#canEdit}}
        <section>
        <h2>Clone</h2>
        <p class="hint">A new event with this one's access types, guest fields, staff and badge, and none of its guests.</p>
        <form method="post" action="/admin/events/{{event.id}}/clone" class="card" id="clone-event">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        \(formError("cloneError", id: "clone-error"))
        \(input("Name", type: "text", name: "name", id: "clone-name", form: "clone", errors: "cloneErrors",
            attributes: " required"))
        \(input("Starts", type: "datetime-local", name: "startsAt", id: "clone-starts", form: "clone",
            errors: "cloneErrors", attributes: " required"))
        \(input("Ends", type: "datetime-local", name: "endsAt", id: "clone-ends", form: "clone",
            errors: "cloneErrors", attributes: " required"))
        \(input("Time zone", type: "text", name: "timeZone", id: "clone-zone", form: "clone",
            errors: "cloneErrors", attributes: #" list="zones" required"#))
        <button type="submit" id="clone-event-button">Clone the event</button>
        </form>
        </section>
        <section>
        <h2>Tickets by e-mail</h2>
        <p class="hint">Every confirmed guest who has not had theirs gets their ticket as a PDF, through this server's mail relay.</p>
        <form method="post" action="/admin/events/{{event.id}}/ticket-mails" class="card inline" id="mail-tickets">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <button type="submit" id="send-tickets">E-mail the tickets</button>
        <a href="/admin/events/{{event.id}}/ticket-mails" id="ticket-mails-link">Delivery status</a>
        </form>
        </section>
        <section>
        <h2>Edit the event</h2>
        <form method="post" action="/admin/events/{{event.id}}" class="card" id="edit-event">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        {{> eventFields}}
        <button type="submit" id="save-event">Save</button>
        </form>
        </section>
        {{/canEdit}}
        """

    static let guests = """
        <p class="crumbs"><a href="/admin/events">Events</a> › <a href="/admin/events/{{event.id}}">{{event.name}}</a> ›</p>
        <h1>Guests</h1>
        <form method="get" action="/admin/events/{{event.id}}/guests" class="card inline" id="guest-filter">
        <label>Search <input type="search" name="q" id="q" value="{{q}}" placeholder="name, e-mail or code"></label>
        <label>Access type <select name="accessTypeId" id="access-type-filter"><option value="">any</option>
        {{#accessTypes}}<option value="{{id}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/accessTypes}}
        </select></label>
        <label>Status <select name="status" id="status-filter"><option value="">any</option>
        {{#statuses}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{value}}</option>{{/statuses}}
        </select></label>
        <label>Check-in <select name="checkIn" id="checkin-filter"><option value="">any</option>
        {{#checkIns}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/checkIns}}
        </select></label>
        <button type="submit" id="filter">Show</button>
        </form>
        <p class="count"><span id="guest-count" aria-live="polite">{{position}}</span> · <a href="{{csv}}" id="guests-csv">Download these guests as CSV</a></p>
        {{#canMail}}
        <form method="post" action="/admin/events/{{event.id}}/guests/mail" class="inline-form" id="mail-guests">
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="list" value="{{filterFields}}">
        <button type="submit" id="mail-guests-button">E-mail their tickets ({{total}})</button>
        </form>
        {{/canMail}}
        {{#canChange}}
        <form method="post" action="/admin/events/{{event.id}}/guests/bulk" class="card inline" id="bulk-guests">
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="list" value="{{filterFields}}">
        <fieldset><legend>Change guests</legend>
        <label><input type="radio" name="scope" value="selected" id="bulk-selected" checked> the ones ticked below</label>
        <label><input type="radio" name="scope" value="filter" id="bulk-filter"> all {{total}} this filter shows</label>
        </fieldset>
        <label>Do <select name="action" id="bulk-action" required><option value="">Choose…</option><option value="cancel">Cancel their registrations</option><option value="access-type">Give them the access type…</option></select></label>
        <label>Access type <select name="accessTypeId" id="bulk-access-type"><option value="">(for a new access type)</option>{{#accessTypes}}<option value="{{id}}">{{name}}</option>{{/accessTypes}}</select></label>
        <button type="submit" id="bulk-apply">Apply</button>
        </form>
        {{/canChange}}
        <table class="list" id="guests">
        <thead><tr>{{#canChange}}<th><span class="visually-hidden">Tick</span></th>{{/canChange}}<th aria-sort="{{ariaName}}"><a href="{{sortName}}" id="sort-name">Name</a></th><th aria-sort="{{ariaEmail}}"><a href="{{sortEmail}}" id="sort-email">E-mail</a></th><th>Access type</th><th>Status</th><th>Checked in</th><th>Notes</th></tr></thead>
        <tbody>
        {{#guests}}
        <tr>{{#canChange}}<td><input type="checkbox" name="guest-{{id}}" value="1" form="bulk-guests" class="guest-tick" aria-label="Tick {{name}}"></td>{{/canChange}}<td class="guest-name"><a href="/admin/events/{{event.id}}/guests/{{id}}">{{name}}</a></td><td>{{email}}</td><td>{{accessType}}</td><td>{{status}}</td><td>{{checkedIn}}{{#canCheckIn}}<form method="post" action="/admin/events/{{event.id}}/guests/{{id}}/checkin" class="inline-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="scannedAt" value="{{scannedAt}}"><input type="hidden" name="list" value="{{list}}">
        <button type="submit" class="link check-in-row" aria-label="Check in {{name}}">Check in</button></form>{{/canCheckIn}}</td><td>{{notes}}</td></tr>
        {{/guests}}
        {{^guests}}<tr><td colspan="7">{{#filtered}}No guest matches these filters: clear the search, or choose "any".{{/filtered}}{{^filtered}}No guests yet: import them from a CSV file (Import guests), or add walk-ins at the door.{{/filtered}}</td></tr>{{/guests}}
        </tbody>
        </table>
        <p class="pager">
        {{#first}}<a href="{{first}}" id="first-page">First page</a>{{/first}}
        {{#next}}<a href="{{next}}" id="next-page">Next page</a>{{/next}}
        </p>
        """

    static let importPage = """
        <p class="crumbs"><a href="/admin/events">Events</a> › <a href="/admin/events/{{event.id}}">{{event.name}}</a> ›</p>
        <h1>Import guests</h1>
        <p>A CSV file (RFC 4180) with a header row; the access type is one of {{#accessTypes}}<q>{{name}}</q> {{/accessTypes}}.
        A bad row is reported by its line and never stops the good ones; importing the same file again skips the guests it already has.
        <a href="/admin/events/{{event.id}}/import/template.csv" id="import-template">Download a template</a> to fill in.</p>
        <form class="card" id="import-form" data-action="/admin/events/{{event.id}}/import" data-csrf="{{csrf}}">
        <label>CSV file <input type="file" name="file" id="csv-file" accept=".csv,text/csv" required></label>
        <fieldset id="import-columns" hidden><legend>Which column holds what</legend>
        {{#fields}}<label>{{title}} <select class="import-column" id="column-{{field}}" data-field="{{field}}"><option value="">{{#required}}(the column named {{field}}){{/required}}{{^required}}(none){{/required}}</option></select></label>
        {{/fields}}</fieldset>
        <button type="submit" id="upload">Import</button>
        <progress id="import-progress" max="100" value="0" hidden></progress>
        </form>
        <section id="import-report" hidden>
        <h2>Report</h2>
        <p id="import-summary"></p>
        <table class="list" id="import-errors"><thead><tr><th>Line</th><th>Error</th></tr></thead><tbody></tbody></table>
        </section>
        <script src="/admin/static/import.js"></script>
        """

    static let staff = """
        <h1>Staff</h1>
        <table class="list" id="users">
        <thead><tr><th>Name</th><th>E-mail</th><th>Role</th><th></th></tr></thead>
        <tbody>
        {{#users}}
        <tr><td class="user-name">{{name}}{{#twoFactor}} <span class="tag">two-factor</span>{{/twoFactor}}</td><td>{{email}}</td><td>{{#me}}{{role}}{{/me}}{{^me}}<form method="post" action="/admin/staff/{{id}}" class="inline-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><select name="role" class="user-role" aria-label="Role of {{name}}">{{#roles}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{title}}</option>{{/roles}}</select>
        <button type="submit" class="user-role-save">Change</button></form>{{/me}}</td><td>{{^me}}<form method="post" action="/admin/staff/{{id}}/sign-out" class="inline-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><button type="submit" class="link user-sign-out">end sign-ins</button></form>
        <form method="post" action="/admin/staff/{{id}}/password-link" class="inline-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><button type="submit" class="link user-password-link" aria-label="Mail {{name}} a link to set a new password">mail a password link</button></form>
        {{#twoFactor}}<form method="post" action="/admin/staff/{{id}}/two-factor/off" class="inline-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><button type="submit" class="link user-two-factor-off" aria-label="Turn off two-factor sign-in of {{name}}">turn off two-factor</button></form>{{/twoFactor}}
        <form method="post" action="/admin/staff/{{id}}/remove" class="inline-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><button type="submit" class="link">remove</button></form>{{/me}}</td></tr>
        {{/users}}
        </tbody>
        </table>
        <h2>New user</h2>
        <form method="post" action="/admin/staff" class="card" id="new-user">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        \(formError(id: "user-form-error"))
        \(input("Name", type: "text", name: "name", id: "user-name", attributes: " required"))
        \(input("E-mail", type: "email", name: "email", id: "user-email", attributes: " required"))
        <label>Role <select name="role" id="user-role">{{#roles}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{title}}</option>{{/roles}}</select></label>
        <label>Password <input type="password" name="password" id="user-password" minlength="8" required{{#formErrors.password}} aria-invalid="true" aria-describedby="user-password-error"{{/formErrors.password}}>{{#formErrors.password}} <span class="field-error" id="user-password-error">{{formErrors.password}}</span>{{/formErrors.password}}</label>
        <button type="submit" id="create-user">Create user</button>
        </form>
        <h2>Recent changes</h2>
        <table class="list" id="user-changes">
        <thead><tr><th>When</th><th>What</th><th>Whose account</th><th>By</th><th>Detail</th></tr></thead>
        <tbody>
        {{#changes}}<tr><td>{{at}}</td><td>{{what}}</td><td>{{user}}</td><td>{{by}}</td><td>{{detail}}</td></tr>{{/changes}}
        {{^changes}}<tr><td colspan="5">No changes yet: users added, new roles, passwords and ended sign-ins are listed here, with who made them.</td></tr>{{/changes}}
        </tbody>
        </table>
        """

    /// The door dashboard; `dashboard.js` keeps it live from the stream (same ids, same shapes).
    static let dashboard = """
        <p class="crumbs"><a href="/admin/events">Events</a> › <a href="/admin/events/{{event.id}}">{{event.name}}</a> ›</p>
        <h1>Doors · {{event.name}}</h1>
        <div id="dashboard" data-stream="/admin/events/{{event.id}}/dashboard/stream">
        <p class="hint"><span id="live-state">Not live yet</span> · updated <span id="updated">{{updated}}</span>
        {{^tv}} · <a href="/admin/events/{{event.id}}/dashboard?tv=1" id="tv-link">TV mode</a>{{/tv}}{{#tv}} · <button type="button" id="tv-fullscreen" class="link">Full screen</button> · <a href="/admin/events/{{event.id}}/dashboard" id="tv-exit">Leave TV mode</a>{{/tv}}</p>
        <section>
        <h2 id="total" aria-live="polite">{{total}}</h2>
        <svg id="bars" class="bars" width="580" height="{{barsHeight}}" viewBox="0 0 580 {{barsHeight}}" role="img" aria-label="Checked in per access type">
        {{#bars}}<g class="bar"><text x="0" y="{{textY}}">{{name}}</text><rect class="track" x="190" y="{{rectY}}" width="{{barWidth}}" height="16"></rect><rect class="fill" x="190" y="{{rectY}}" width="{{width}}" height="16"></rect><text class="value" x="498" y="{{textY}}">{{label}}</text></g>{{/bars}}
        </svg>
        </section>
        <section>
        <h2>Check-ins per minute</h2>
        <svg id="chart" class="chart" data-left="{{plotLeft}}" data-right="{{gridEnd}}" data-tick-y="{{tickY}}" width="{{chartOuterWidth}}" height="{{chartOuterHeight}}" viewBox="0 0 {{chartOuterWidth}} {{chartOuterHeight}}" role="img" aria-label="Check-ins per minute, the last hour">
        <g id="scale">{{#scale}}<line class="grid" x1="{{plotLeft}}" y1="{{y}}" x2="{{gridEnd}}" y2="{{y}}"></line><text class="tick" x="{{plotLeft}}" dx="-6" y="{{textY}}" text-anchor="end">{{label}}</text>{{/scale}}</g>
        <g transform="translate({{plotLeft}},0)"><g id="columns">{{#columns}}<rect x="{{x}}" y="{{y}}" width="8" height="{{height}}"><title>{{title}}</title></rect>{{/columns}}</g></g>
        <line class="axis" x1="{{plotLeft}}" y1="{{chartHeight}}" x2="{{gridEnd}}" y2="{{chartHeight}}"></line>
        <line class="axis" x1="{{plotLeft}}" y1="0" x2="{{plotLeft}}" y2="{{chartHeight}}"></line>
        <g id="ticks">{{#ticks}}<text class="tick" x="{{x}}" y="{{tickY}}" text-anchor="middle">{{label}}</text>{{/ticks}}</g>
        </svg>
        <p class="hint" id="chart-caption">{{chartCaption}}</p>
        </section>
        <section>
        <h2>The last 20 check-ins</h2>
        <table class="list" id="recent">
        <thead><tr><th>Time</th><th>Guest</th><th>Access type</th><th>By</th><th>Device</th><th>How</th></tr></thead>
        <tbody>{{#recent}}<tr><td>{{time}}</td><td>{{guest}}</td><td>{{accessType}}</td><td>{{by}}</td><td>{{device}}</td><td>{{method}}</td></tr>{{/recent}}</tbody>
        </table>
        <p class="hint empty" id="recent-empty"{{#hasRecent}} hidden{{/hasRecent}}>No check-ins yet: they appear here as the doors scan tickets (each device sends its own as soon as it has a connection).</p>
        </section>
        <section id="zones-section"{{^hasZones}} hidden{{/hasZones}}>
        <h2>Zones</h2>
        <p class="hint">People inside each zone (entries minus exits, from every zone station's sync); an entry marked is one a station could not refuse offline, such as a second entry on a ticket without re-entry.</p>
        <table class="list" id="zones">
        <thead><tr><th>Zone</th><th>Inside</th><th>Entries</th><th>Exits</th><th>Marked</th></tr></thead>
        <tbody>{{#zones}}<tr{{#attention}} class="attention"{{/attention}}><td>{{name}}</td><td>{{inside}}</td><td>{{entries}}</td><td>{{exits}}</td><td>{{violations}}</td></tr>{{/zones}}</tbody>
        </table>
        </section>
        <section>
        <h2>Devices</h2>
        <p class="hint">What each device said at its last sync: the check-ins it still holds have not reached the server yet.</p>
        <table class="list" id="devices">
        <thead><tr><th>Device</th><th>Signed in</th><th>Last contact</th><th>Still holds</th></tr></thead>
        <tbody>{{#devices}}<tr{{#attention}} class="attention"{{/attention}}><td>{{device}}</td><td>{{user}}</td><td>{{lastContact}}</td><td>{{pending}}</td></tr>{{/devices}}</tbody>
        </table>
        <p class="hint empty" id="devices-empty"{{#hasDevices}} hidden{{/hasDevices}}>No device has reported yet: a door device appears here after its first sync with this event.</p>
        </section>
        <section id="mesh-section"{{^hasMesh}} hidden{{/hasMesh}}>
        <h2>Venue mesh</h2>
        <p class="hint">Doors that shared check-ins with each other while the server was out of reach, so a ticket admitted at one was refused at the others. A door marked never reported itself: other doors handed its admissions in; look for it.</p>
        <table class="list" id="mesh">
        <thead><tr><th>Device</th><th>Signed by</th><th>Met</th><th>Admitted in the mesh</th><th>Last report</th></tr></thead>
        <tbody>{{#mesh}}<tr{{#attention}} class="attention"{{/attention}}><td>{{device}}</td><td>{{user}}</td><td>{{met}}</td><td>{{admitted}}</td><td>{{lastReport}}</td></tr>{{/mesh}}</tbody>
        </table>
        </section>
        </div>
        <script src="/admin/static/dashboard.js"></script>
        """

    static let contacts = """
        <h1>Contacts</h1>
        <p class="tabs"><a href="/admin/contacts" aria-current="page">Contacts</a> <a href="/admin/activities" id="activities-link">Activities report</a></p>
        <table class="list" id="contacts">
        <thead><tr><th>Name</th><th>Area</th><th>Last visit</th><th>Mentors</th><th>Kept sealed</th><th>Actions</th></tr></thead>
        <tbody>
        {{#contacts}}<tr><td class="contact-name"><a href="/admin/contacts/{{id}}">{{name}}</a></td><td>{{area}}</td><td>{{lastVisit}}</td><td>{{mentors}}</td><td>{{sensitive}}</td>
        <td>{{#hasMentors}}<form method="post" action="/admin/contacts/{{id}}/mentors" class="inline-form"><input type="hidden" name="_csrf" value="{{csrf}}">
        <select name="mentorId" class="assign-mentor" aria-label="Mentor for {{name}}" required><option value="">Choose a mentor…</option>{{#assignable}}<option value="{{id}}">{{name}}</option>{{/assignable}}</select>
        <button type="submit" class="assign-mentor-button">Assign</button></form>{{/hasMentors}}
        <form method="post" action="/admin/contacts/{{id}}/erase" class="inline-form"><input type="hidden" name="_csrf" value="{{csrf}}"><button type="submit" class="link erase-contact">erase</button></form></td></tr>{{/contacts}}
        {{^contacts}}<tr><td colspan="6">No contacts yet: add the first below, then assign a mentor, whose phone then has it.</td></tr>{{/contacts}}
        </tbody>
        </table>
        {{^hasMentors}}<p class="hint" id="no-mentors">No peer mentors yet: create users with the role Peer mentor on the Staff page to assign them.</p>{{/hasMentors}}
        <h2>New contact</h2>
        <form method="post" action="/admin/contacts" class="card" id="new-contact">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        \(formError(id: "contact-error"))
        \(input("Name", type: "text", name: "name", id: "contact-name", attributes: " required"))
        \(input("Area", type: "text", name: "area", id: "contact-area", attributes: " required"))
        \(input("Address (sealed)", type: "text", name: "address", id: "contact-address"))
        \(input("Phone (sealed)", type: "tel", name: "phone", id: "contact-phone"))
        \(input("Health notes (sealed)", type: "text", name: "healthNotes", id: "contact-health"))
        <p class="hint">Sealed fields are shown to a mentor only when they reveal them, and every reveal is recorded.</p>
        <button type="submit" id="add-contact">Add contact</button>
        </form>
        """

    /// One contact: the edit form (sealed fields kept unless retyped or removed) and who saw the
    /// sealed fields, when.
    static let contact = """
        <p class="crumbs"><a href="/admin/contacts">Contacts</a> ›</p>
        <h1>{{contact.name}}</h1>
        <form method="post" action="/admin/contacts/{{contact.id}}" class="card" id="edit-contact">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        \(formError(id: "contact-error"))
        \(input("Name", type: "text", name: "name", id: "contact-name", attributes: " required"))
        \(input("Area", type: "text", name: "area", id: "contact-area", attributes: " required"))
        {{#sealed}}
        <fieldset class="sealed-field"><legend>{{title}} (sealed)</legend>
        <label>{{#isSet}}New value (the kept one stays if this is empty){{/isSet}}{{^isSet}}Value (none kept){{/isSet}} <input type="{{type}}" name="{{name}}" id="contact-{{name}}" autocomplete="off"></label>
        {{#isSet}}<label class="check"><input type="checkbox" name="remove-{{name}}" value="1" id="contact-remove-{{name}}"> Remove the kept {{lowerTitle}}</label>{{/isSet}}
        </fieldset>
        {{/sealed}}
        <p class="hint">The console never shows sealed fields; a mentor reveals them on their phone, and each reveal is listed below.</p>
        <button type="submit" id="save-contact">Save</button>
        </form>
        <h2>Who saw the sealed fields</h2>
        {{#hasReveals}}
        <table class="list" id="reveals">
        <thead><tr><th>When</th><th>Who</th></tr></thead>
        <tbody>{{#reveals}}<tr><td><time datetime="{{at}}">{{when}}</time></td><td>{{who}}</td></tr>{{/reveals}}</tbody>
        </table>
        {{/hasReveals}}
        {{^hasReveals}}<p class="hint empty" id="reveals-empty">Nobody has revealed them yet.</p>{{/hasReveals}}
        """

    static let activities = """
        <h1>Activities</h1>
        <p class="tabs"><a href="/admin/contacts" id="contacts-link">Contacts</a> <a href="/admin/activities" aria-current="page">Activities report</a></p>
        <form method="get" action="/admin/activities" class="card inline" id="activity-filter">
        <label>Mentor <select name="mentor" id="activity-mentor"><option value="">any</option>{{#mentors}}<option value="{{id}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/mentors}}</select></label>
        <label>Contact <select name="contact" id="activity-contact"><option value="">any</option>{{#contacts}}<option value="{{id}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/contacts}}</select></label>
        <label>From <input type="date" name="from" id="activity-from" value="{{from}}"></label>
        <label>To <input type="date" name="to" id="activity-to" value="{{to}}"></label>
        <button type="submit" id="activity-show">Show</button>
        </form>
        <p class="count"><span id="activity-totals">{{count}}, {{minutes}} minutes</span> · <a href="{{csv}}" id="activities-csv">Download the funder's report (CSV)</a></p>
        <table class="list" id="activities">
        <thead><tr><th>Date</th><th>Activity</th><th>Minutes</th><th>Mentor</th><th>Contact</th></tr></thead>
        <tbody>
        {{#activities}}<tr><td>{{date}}</td><td>{{type}}</td><td>{{minutes}}</td><td>{{mentor}}</td><td>{{contact}}</td></tr>{{/activities}}
        {{^activities}}<tr><td colspan="5">No activities match: mentors log their visits and calls on their phones, and they appear here after their next sync.</td></tr>{{/activities}}
        </tbody>
        </table>
        <p class="pager">{{#next}}<a href="{{next}}" id="activities-next">Later activities</a>{{/next}}</p>
        """

    static let settings = """
        <h1>Settings</h1>
        <form method="post" action="/admin/settings" class="card" id="settings-form">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        \(formError(id: "settings-error"))
        \(input("Offline unlock window, in hours", type: "number", name: "offlineUnlockHours", id: "offline-unlock",
            attributes: #" min="{{minHours}}" max="{{maxHours}}" required"#))
        <p class="hint">How long a phone may still be unlocked without reaching the server: mentors and care workers work where there is no signal. {{minHours}} to {{maxHours}}.</p>
        \(input("Time zone of new events", type: "text", name: "timeZone", id: "tenant-zone",
            attributes: #" list="zones" placeholder="the browser's""#))
        <datalist id="zones">{{#zones}}<option value="{{.}}">{{/zones}}</datalist>
        <p class="hint">Empty: the console offers the zone of the browser the event is created in.</p>
        <label class="check"><input type="checkbox" name="organizersNeedTwoFactor" value="true" id="require-two-factor"{{#organizersNeedTwoFactor}} checked{{/organizersNeedTwoFactor}}> Organizers must sign in with a code from an authenticator app</label>
        <p class="hint">An organizer who has not turned it on can do nothing else until they do.</p>
        <button type="submit" id="save-settings">Save</button>
        </form>
        """

    static let guest = """
        <p class="crumbs"><a href="/admin/events">Events</a> › <a href="/admin/events/{{event.id}}">{{event.name}}</a> › <a href="/admin/events/{{event.id}}/guests">Guests</a> ›</p>
        <h1 id="guest-title">{{guest.name}}</h1>
        <p class="hint">Code {{guest.code}} · {{guest.status}}{{#checkedIn}} · checked in {{checkedIn}}{{/checkedIn}}</p>
        {{#canEdit}}
        <form method="post" action="/admin/events/{{event.id}}/guests/{{guest.id}}" class="card" id="edit-guest">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label>Name <input type="text" name="name" id="guest-name" value="{{guest.name}}" required></label>
        <label>E-mail <input type="email" name="email" id="guest-email" value="{{guest.email}}" required></label>
        <label>Access type <select name="accessTypeId" id="guest-access-type">
        {{#accessTypes}}<option value="{{id}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/accessTypes}}
        </select></label>
        <label>Status <select name="status" id="guest-status">
        {{#statuses}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{value}}</option>{{/statuses}}
        </select></label>
        <label>Notes <input type="text" name="notes" id="guest-notes" value="{{guest.notes}}"></label>
        {{#fields}}{{#isText}}<label>{{label}} <input type="text" name="field.{{id}}" id="field-{{id}}" class="guest-field" value="{{value}}" maxlength="500"></label>{{/isText}}{{#isChoice}}<label>{{label}} <select name="field.{{id}}" id="field-{{id}}" class="guest-field"><option value="">(none)</option>{{#choices}}<option{{#selected}} selected{{/selected}}>{{choice}}</option>{{/choices}}</select></label>{{/isChoice}}{{#isCheckbox}}<label><input type="checkbox" name="field.{{id}}" id="field-{{id}}" class="guest-field"{{#checked}} checked{{/checked}}> {{label}}</label>{{/isCheckbox}}
        {{/fields}}
        <button type="submit" id="save-guest">Save</button>
        </form>
        {{#confirmed}}
        <form method="post" action="/admin/events/{{event.id}}/guests/{{guest.id}}/cancel" class="card inline" id="cancel-guest">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <p class="hint">Cancelling keeps the guest's record; their ticket is refused at the door from the next roster sync.</p>
        <button type="submit" id="cancel-registration" class="danger">Cancel the registration</button>
        </form>
        {{/confirmed}}
        {{/canEdit}}
        {{^canEdit}}
        <p>{{guest.email}} · {{guest.notes}}</p>
        {{#hasShownFields}}<dl id="guest-fields">{{#shownFields}}<dt>{{label}}</dt><dd>{{value}}</dd>{{/shownFields}}</dl>{{/hasShownFields}}
        {{/canEdit}}
        <section class="card" id="check-in-desk" aria-labelledby="desk-title">
        <h2 id="desk-title">Check-in</h2>
        {{#checkIn}}
        <p id="checked-in">Checked in {{at}} by {{by}} on {{device}}.</p>
        <form method="post" action="/admin/events/{{event.id}}/guests/{{guest.id}}/checkin/undo" id="undo-check-in">
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="checkInId" value="{{id}}">
        <label>Why it is taken back <input type="text" name="reason" id="undo-reason" maxlength="500" required></label>
        <button type="submit" id="undo-check-in-button" class="danger">Undo the check-in</button>
        </form>
        {{/checkIn}}
        {{^checkIn}}
        {{#confirmed}}
        <p id="not-checked-in">Not checked in.</p>
        <form method="post" action="/admin/events/{{event.id}}/guests/{{guest.id}}/checkin" id="check-in">
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="scannedAt" value="{{desk.scannedAt}}">
        <button type="submit" id="check-in-button">Check in</button>
        </form>
        {{/confirmed}}
        {{^confirmed}}<p id="not-checked-in">Not checked in; the registration is {{guest.status}}, so the doors refuse the ticket.</p>{{/confirmed}}
        {{/checkIn}}
        {{#hasHistory}}
        <h3>History</h3>
        <table class="list" id="guest-history">
        <thead><tr><th>Time</th><th>What</th><th>By</th><th>Device</th><th>Note</th></tr></thead>
        <tbody>{{#history}}<tr><td>{{at}}</td><td>{{what}}</td><td>{{by}}</td><td>{{device}}</td><td>{{how}}</td></tr>{{/history}}</tbody>
        </table>
        {{/hasHistory}}
        </section>
        """

    static let audit = """
        <p class="crumbs"><a href="/admin/events">Events</a> › <a href="/admin/events/{{event.id}}">{{event.name}}</a> ›</p>
        <h1>Audit log</h1>
        <form method="get" action="/admin/events/{{event.id}}/audit" class="card inline" id="audit-filter">
        <label>What <select name="kind" id="kind-filter"><option value="">anything</option>
        {{#kinds}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{title}}</option>{{/kinds}}
        </select></label>
        <label>Device <input type="text" name="deviceId" id="device-filter" value="{{deviceId}}"></label>
        <label>By <select name="userId" id="user-filter"><option value="">anyone</option>
        {{#users}}<option value="{{id}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/users}}
        </select></label>
        <button type="submit" id="audit-show">Show</button>
        </form>
        <p><a href="{{csv}}" id="audit-csv">Download these entries as CSV</a></p>
        <table class="list" id="audit">
        <thead><tr><th>Time</th><th>What</th><th>Guest</th><th>By</th><th>Device</th><th>How</th></tr></thead>
        <tbody>
        {{#entries}}<tr><td>{{at}}</td><td>{{kind}}</td><td>{{guest}}</td><td>{{user}}</td><td>{{device}}</td><td>{{method}}</td></tr>{{/entries}}
        {{^entries}}<tr><td colspan="6">No entry matches: check-ins, repeats, undos and badge prints appear here as they reach the server.</td></tr>{{/entries}}
        </tbody>
        </table>
        <p class="pager">
        {{#first}}<a href="{{first}}" id="audit-first">From the start</a>{{/first}}
        {{#next}}<a href="{{next}}" id="audit-next">Later entries</a>{{/next}}
        </p>
        """

    static let walkIns = """
        <p class="crumbs"><a href="/admin/events">Events</a> › <a href="/admin/events/{{event.id}}">{{event.name}}</a> ›</p>
        <h1>Walk-ins</h1>
        <section>
        <h2>Places</h2>
        <table class="list" id="walkin-places">
        <thead><tr><th>Access type</th><th>Capacity</th><th>Admitted</th><th>Held by doors or used</th><th>Open leases</th><th>Over capacity</th></tr></thead>
        <tbody>
        {{#capacities}}<tr><td>{{name}}</td><td>{{capacity}}</td><td>{{admitted}}</td><td>{{reserved}}</td><td>{{openLeases}}</td><td>{{overCapacity}}</td></tr>{{/capacities}}
        {{^capacities}}<tr><td colspan="6">No access type admits walk-ins.</td></tr>{{/capacities}}
        </tbody>
        </table>
        <p class="hint">Doors hold leased places so they can admit offline; a door's unused places come back when it closes or its lease ends.</p>
        </section>
        <section>
        <h2>End of shift, by device</h2>
        <table class="list" id="walkin-shifts">
        <thead><tr><th>Device</th><th>Walk-ins</th><th>How paid</th><th>Count</th><th>Amount</th></tr></thead>
        <tbody>
        {{#shifts}}<tr><td>{{device}}</td><td>{{walkIns}}</td><td>{{method}}</td><td>{{count}}</td><td>{{amount}}</td></tr>{{/shifts}}
        {{^shifts}}<tr><td colspan="5">No walk-ins yet: a door device adds them from its Walk-in tab, on access types that allow them.</td></tr>{{/shifts}}
        </tbody>
        </table>
        <p><a href="{{csv}}" id="walkins-csv">Download the summary as CSV</a></p>
        </section>
        <section>
        <h2>Everyone added at the door</h2>
        <table class="list" id="walkins">
        <thead><tr><th>Added</th><th>Name</th><th>E-mail</th><th>Access type</th><th>By</th><th>Device</th><th>Paid</th><th>Look at</th></tr></thead>
        <tbody>
        {{#walkIns}}<tr><td>{{at}}</td><td><a href="/admin/events/{{event.id}}/guests/{{guestId}}">{{name}}</a></td><td>{{email}}</td><td>{{accessType}}</td><td>{{byName}}</td><td>{{device}}</td><td>{{paid}}</td><td>{{#duplicateOf}}<span class="tag warn">possible duplicate of <a href="/admin/events/{{event.id}}/guests/{{duplicateOf}}">{{duplicateName}}</a></span>{{/duplicateOf}}{{#overCapacity}} <span class="tag warn">over capacity</span>{{/overCapacity}}</td></tr>{{/walkIns}}
        {{^walkIns}}<tr><td colspan="8">No walk-ins yet: a door device adds them from its Walk-in tab, on access types that allow them.</td></tr>{{/walkIns}}
        </tbody>
        </table>
        <p class="hint">A possible duplicate is kept as its own guest: nothing is merged unless you cancel one.</p>
        </section>
        """

    static let badge = """
        <p class="crumbs"><a href="/admin/events">Events</a> › <a href="/admin/events/{{event.id}}">{{event.name}}</a> ›</p>
        <h1>Badge</h1>
        <section>
        <h2>Layout</h2>
        <p><img id="badge-preview" src="{{preview}}" width="{{previewWidth}}" height="{{previewHeight}}" alt="The badge as the printers draw it, for a sample guest"></p>
        {{#canEdit}}<form method="post" action="/admin/events/{{event.id}}/badge" id="badge-form">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label>Label <select name="label" id="badge-label">{{#labels}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{title}}</option>{{/labels}}</select></label>
        <label>Under the name <select name="secondLine" id="badge-second-line">{{#secondLines}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{title}}</option>{{/secondLines}}</select></label>
        <label><input type="checkbox" name="band" id="badge-band"{{#band}} checked{{/band}}> Access type colour band</label>
        <label><input type="checkbox" name="qr" id="badge-qr"{{#qr}} checked{{/qr}}> QR code of the ticket</label>
        <label><input type="checkbox" name="printOnCheckIn" id="badge-print-on-check-in"{{#printOnCheckIn}} checked{{/printOnCheckIn}}> Print the badge at check-in (doors with a paired printer)</label>
        <button type="submit" id="badge-save">Save</button>
        </form>{{/canEdit}}
        </section>
        {{#showsPrints}}<section>
        <h2>Printed</h2>
        <p class="count" id="badge-counts">{{printed}} printed, {{reprinted}} reprinted</p>
        <table class="list" id="badge-prints">
        <thead><tr><th>Printed</th><th>Guest</th><th>By</th><th>Device</th><th>Reprint</th></tr></thead>
        <tbody>
        {{#prints}}<tr><td>{{at}}</td><td><a href="/admin/events/{{event.id}}/guests/{{guestId}}">{{guest}}</a></td><td>{{by}}</td><td>{{device}}</td><td>{{#reprint}}<span class="tag warn">reprint: {{reason}}</span>{{/reprint}}</td></tr>{{/prints}}
        {{^prints}}<tr><td colspan="5">No badge printed yet: the door devices print them at check-in when the layout says so, or from a guest's card.</td></tr>{{/prints}}
        </tbody>
        </table>
        </section>{{/showsPrints}}
        """

    static let zones = """
        <p class="crumbs"><a href="/admin/events">Events</a> › <a href="/admin/events/{{event.id}}">{{event.name}}</a> ›</p>
        <h1>Zones</h1>
        <p id="efx-state">EFx stations are {{#efx}}on{{/efx}}{{^efx}}off{{/efx}} for this event{{#efx}}: devices show the EFx tab, where a zone station guards one zone{{/efx}}.</p>
        {{#canEdit}}<form method="post" action="/admin/events/{{event.id}}/efx" class="inline-form" id="efx-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="on" value="{{^efx}}on{{/efx}}{{#efx}}off{{/efx}}">
        <button type="submit" id="efx-toggle">{{^efx}}Turn EFx stations on{{/efx}}{{#efx}}Turn EFx stations off{{/efx}}</button>
        </form>{{/canEdit}}
        <table class="list" id="zones">
        <thead><tr><th>Zone</th><th>Admits</th><th>Inside</th><th>Entries</th><th>Exits</th><th>Marked</th>{{#canEdit}}<th></th>{{/canEdit}}</tr></thead>
        <tbody>
        {{#zones}}<tr><td>{{name}}</td><td>{{admits}}</td><td>{{inside}}</td><td>{{entries}}</td><td>{{exits}}</td><td>{{violations}}</td>{{#canEdit}}<td>
        <form method="post" action="/admin/events/{{event.id}}/zones/{{id}}" class="inline-form zone-change">
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="text" name="name" value="{{name}}" maxlength="80" required aria-label="Name">
        <input type="number" name="capacity" value="{{capacity}}" min="1" placeholder="no limit" aria-label="Capacity"><button type="submit">Change</button></form>
        <form method="post" action="/admin/events/{{event.id}}/zones/{{id}}/remove" class="inline-form zone-remove">
        <input type="hidden" name="_csrf" value="{{csrf}}"><button type="submit">Remove</button></form></td>{{/canEdit}}</tr>{{/zones}}
        {{^zones}}<tr><td colspan="6">No zones yet. Add the first below: its name, its capacity if it has one, and who may enter.</td></tr>{{/zones}}
        </tbody>
        </table>
        {{#hasViolations}}<section>
        <h2>Marked entries</h2>
        <p class="hint">Entries a station admitted that it could not refuse offline (another station's entry of the same ticket) or against rules it had not synced. They are counted; nobody was turned away twice.</p>
        <table class="list" id="zone-violations">
        <thead><tr><th>Scanned</th><th>Guest</th><th>Zone</th><th>Why</th><th>By</th><th>Device</th></tr></thead>
        <tbody>{{#violations}}<tr><td>{{at}}</td><td>{{guest}}</td><td>{{zone}}</td><td>{{why}}</td><td>{{by}}</td><td>{{device}}</td></tr>{{/violations}}</tbody>
        </table>
        </section>{{/hasViolations}}
        {{#hasStations}}<section>
        <h2>Stations</h2>
        <p class="hint">Choose who works which EFx station: their device's EFx tab opens it, a zone station already at its zone. Without a choice, staff pick one on the device.</p>
        <table class="list" id="stations"><thead><tr><th>Who</th><th>Station</th></tr></thead><tbody>
        {{#stations}}<tr><td>{{name}}</td><td><form method="post" action="/admin/events/{{event.id}}/stations" class="inline-form station-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="userId" value="{{userId}}">
        <select name="station" aria-label="Station">{{#choices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/choices}}</select>
        <button type="submit">Set</button></form></td></tr>{{/stations}}
        </tbody></table>
        </section>{{/hasStations}}
        {{#canEdit}}<section>
        <h2>Add a zone</h2>
        <form method="post" action="/admin/events/{{event.id}}/zones" class="card" id="zone-form">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label>Name <input type="text" name="name" id="zone-name" required maxlength="80"></label>
        <label>Capacity <input type="number" name="capacity" id="zone-capacity" min="1" placeholder="no limit"></label>
        <fieldset><legend>Admits</legend>{{#accessTypes}}<label><input type="checkbox" name="admit-{{id}}" class="zone-admit"> {{name}}</label>{{/accessTypes}}</fieldset>
        <label><input type="checkbox" name="reEntry" id="zone-re-entry" checked> Re-entry allowed</label>
        <label>Opens <input type="datetime-local" name="opens" id="zone-opens"></label>
        <label>Closes <input type="datetime-local" name="closes" id="zone-closes"></label>
        <p class="hint">Times are the event's ({{timeZone}}); leave them empty for the whole event.</p>
        <button type="submit" id="zone-add">Add the zone</button>
        </form>
        </section>{{/canEdit}}
        """

    static let pickup = """
        <p class="crumbs"><a href="/admin/events">Events</a> › <a href="/admin/events/{{event.id}}">{{event.name}}</a> ›</p>
        <h1>Product pickup</h1>
        <p id="pickup-efx-state">EFx stations are {{#efx}}on{{/efx}}{{^efx}}off{{/efx}} for this event{{#efx}}: devices show the EFx tab, where a pickup station hands out these items{{/efx}}{{^efx}} (<a href="/admin/events/{{event.id}}/zones">turn them on</a>){{/efx}}.</p>
        {{#imported}}<section class="card" id="pickup-import-result">
        <p>{{imported.changed}} entitlement(s) set, {{imported.unchanged}} already so.</p>
        {{#imported.hasErrors}}<ul class="errors" id="pickup-import-errors">{{#imported.errors}}<li>Line {{line}}: {{error}}</li>{{/imported.errors}}</ul>{{/imported.hasErrors}}
        </section>{{/imported}}
        <table class="list" id="pickup-items">
        <thead><tr><th>Item</th><th>Per ticket</th><th>Stock</th><th>Handed out</th><th>Left</th><th>Over-redeemed</th></tr></thead>
        <tbody>
        {{#items}}<tr{{#attention}} class="attention"{{/attention}}><td>{{name}}</td><td>{{allowances}}</td><td>{{stock}}</td><td>{{redeemed}}</td><td>{{left}}</td><td>{{over}}</td></tr>{{/items}}
        {{^items}}<tr><td colspan="6">No items yet. Add the first below: what is handed out, its stock, and how many each ticket gets.</td></tr>{{/items}}
        </tbody>
        </table>
        {{#hasStations}}<section>
        <h2>Per station</h2>
        <table class="list" id="pickup-stations">
        <thead><tr><th>Device</th><th>Item</th><th>Handed out</th></tr></thead>
        <tbody>{{#stations}}<tr><td>{{device}}</td><td>{{item}}</td><td>{{redeemed}}</td></tr>{{/stations}}</tbody>
        </table>
        </section>{{/hasStations}}
        {{#hasOver}}<section>
        <h2>Over-redemptions</h2>
        <p class="hint">Items handed out beyond a ticket's entitlement, mostly by two stations offline at once. They left the table, so the stock counts them; nothing was dropped.</p>
        <table class="list" id="pickup-over">
        <thead><tr><th>Scanned</th><th>Guest</th><th>Over</th><th>By</th><th>Device</th></tr></thead>
        <tbody>{{#over}}<tr><td>{{at}}</td><td>{{guest}}</td><td>{{what}}</td><td>{{by}}</td><td>{{device}}</td></tr>{{/over}}</tbody>
        </table>
        </section>{{/hasOver}}
        {{#canEdit}}<section>
        <h2>Add an item</h2>
        <form method="post" action="/admin/events/{{event.id}}/pickup" class="card" id="pickup-form">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label>Name <input type="text" name="name" id="pickup-name" required maxlength="80"></label>
        <label>Stock <input type="number" name="stock" id="pickup-stock" min="0" placeholder="no limit"></label>
        <fieldset><legend>Per ticket of</legend>{{#accessTypes}}<label>{{name}} <input type="number" name="allow-{{id}}" class="pickup-allow" min="0" max="1000" value="0"></label>{{/accessTypes}}</fieldset>
        <button type="submit" id="pickup-add">Add the item</button>
        </form>
        </section>
        <section>
        <h2>Entitlements for single guests</h2>
        <form method="post" action="/admin/events/{{event.id}}/pickup/entitlements" class="card" id="pickup-import-form">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label>CSV <textarea name="csv" id="pickup-csv" rows="6" required placeholder="email,item,quantity"></textarea></label>
        <p class="hint">A header naming <code>email</code> (or <code>guest_id</code>), <code>item</code> and <code>quantity</code>; each row adds to the guest's access type. Larger files go to the API.</p>
        <button type="submit" id="pickup-import">Import</button>
        </form>
        </section>{{/canEdit}}
        """

    static let booths = """
        <p class="crumbs"><a href="/admin/events">Events</a> › <a href="/admin/events/{{event.id}}">{{event.name}}</a> ›</p>
        <h1>Booths</h1>
        <p class="hint">Exhibitors (users with the exhibitor role) capture leads at their booth with the Outpost app. A lead shows the attendee's name and e-mail only while the attendee shares them.</p>
        <table class="list" id="booths">
        <thead><tr><th>Booth</th><th>Exhibitors</th><th>Questions</th><th>Leads</th></tr></thead>
        <tbody>
        {{#booths}}<tr><td><a href="/admin/booths/{{id}}/leads">{{name}}</a></td><td>{{exhibitors}}</td><td>{{questions}}</td><td>{{leads}}</td></tr>{{/booths}}
        {{^booths}}<tr><td colspan="4">No booths yet. Add one below and choose its exhibitors.</td></tr>{{/booths}}
        </tbody>
        </table>
        {{#canEdit}}<section>
        <h2>Add a booth</h2>
        <form method="post" action="/admin/events/{{event.id}}/booths" class="card" id="booth-form">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label>Name <input type="text" name="name" id="booth-name" required maxlength="80"></label>
        <fieldset><legend>Exhibitors</legend>{{#exhibitors}}<label><input type="checkbox" name="exhibitor-{{id}}" class="booth-exhibitor"> {{name}}</label>{{/exhibitors}}{{^exhibitors}}<p class="hint">No exhibitor users yet: add one on the Staff page with the exhibitor role.</p>{{/exhibitors}}</fieldset>
        <label>Questions <textarea name="questions" id="booth-questions" rows="3" placeholder="One per line"></textarea></label>
        <button type="submit" id="booth-add">Add the booth</button>
        </form>
        </section>{{/canEdit}}
        """

    static let ticketBlocks = """
        <p class="crumbs"><a href="/admin/events">Events</a> › <a href="/admin/events/{{event.id}}">{{event.name}}</a> ›</p>
        <h1>Ticket blocks</h1>
        <p class="hint">A block is tickets of one access type set aside for a partner (a sponsor, a company, a speakers' agency). Its managers (users with the block manager role) name the tickets until the deadline; each named ticket is mailed to its holder. Door staff see the block on the guest card.</p>
        <table class="list" id="ticket-blocks">
        <thead><tr><th>Partner</th><th>Kind</th><th>Access type</th><th>Named</th><th>Naming until ({{event.timeZone}})</th><th>Door naming</th><th>Managers</th></tr></thead>
        <tbody>
        {{#blocks}}<tr><td><a href="/admin/ticket-blocks/{{id}}">{{partner}}</a></td><td>{{kind}}</td><td>{{accessType}}</td><td>{{named}} of {{size}}</td><td>{{deadline}}</td><td>{{#doorNaming}}allowed{{/doorNaming}}{{^doorNaming}}no{{/doorNaming}}</td><td>{{managers}}</td></tr>{{/blocks}}
        {{^blocks}}<tr><td colspan="7">No ticket blocks yet. Allocate one below to a sponsor or partner, who then names its tickets.</td></tr>{{/blocks}}
        </tbody>
        </table>
        {{#hasConflicts}}<h2>Named twice</h2>
        <p class="hint">A door named these tickets after someone else had: the first name stands; check who came in.</p>
        <table class="list" id="block-conflicts"><thead><tr><th>Ticket of</th><th>Door named it</th><th>At</th></tr></thead><tbody>
        {{#conflicts}}<tr><td>{{name}}</td><td>{{doorName}}</td><td>{{at}}</td></tr>{{/conflicts}}
        </tbody></table>{{/hasConflicts}}
        {{#canEdit}}<section>
        <h2>Allocate a block</h2>
        <form method="post" action="/admin/events/{{event.id}}/ticket-blocks" class="card" id="block-form">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label>Partner <input type="text" name="partner" id="block-partner" required maxlength="80"></label>
        <label>Kind <select name="kind" id="block-kind">{{#kinds}}<option value="{{value}}">{{title}}</option>{{/kinds}}</select></label>
        <label>Access type <select name="accessTypeId" id="block-access-type" required><option value="">Choose…</option>{{#accessTypes}}<option value="{{id}}">{{name}}</option>{{/accessTypes}}</select></label>
        <label>Tickets <input type="number" name="size" id="block-size" min="1" max="5000" required></label>
        <label>Naming deadline ({{event.timeZone}}) <input type="datetime-local" name="namingDeadline" id="block-deadline" required></label>
        <label><input type="checkbox" name="doorNaming" id="block-door-naming"> Door staff may name an unnamed ticket as its holder arrives</label>
        <fieldset><legend>Managers</legend>{{#managers}}<label><input type="checkbox" name="manager-{{id}}" class="block-manager"> {{name}}</label>{{/managers}}{{^managers}}<p class="hint">No block managers yet: add one on the Staff page with the block_manager role.</p>{{/managers}}</fieldset>
        <button type="submit" id="block-add">Allocate the block</button>
        </form>
        </section>{{/canEdit}}
        """

    static let ticketBlock = """
        <p class="crumbs"><a href="/admin/events">Events</a> › {{#isOrganizer}}<a href="/admin/events/{{event.id}}/ticket-blocks">{{event.name}}</a>{{/isOrganizer}}{{^isOrganizer}}{{event.name}}{{/isOrganizer}} ›</p>
        <h1 id="block-title">{{partner}}</h1>
        <p id="block-scope">{{scope}} · {{accessType}} · {{named}} of {{size}} named</p>
        {{#open}}<p class="hint" id="block-deadline-note">Names and e-mails can be given and changed until {{deadline}}. Each named ticket is mailed to its holder.</p>{{/open}}
        {{^open}}<p class="banner" id="block-deadline-passed">The naming deadline passed on {{deadline}}.{{^isOrganizer}} Ask the organizer to change a name.{{/isOrganizer}}{{#doorNaming}} Unnamed tickets can be named at the door.{{/doorNaming}}</p>{{/open}}
        <table class="list" id="block-tickets">
        <thead><tr><th>#</th><th>Name</th><th>E-mail</th><th>Ticket mail</th><th>Checked in</th></tr></thead>
        <tbody>
        {{#tickets}}<tr><td>{{number}}</td>
        {{#canName}}<td colspan="2"><form method="post" action="/admin/ticket-blocks/{{id}}/tickets/{{guestId}}" class="inline block-ticket-form">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <input type="text" name="name" value="{{name}}" placeholder="Name" aria-label="Ticket holder's name" required maxlength="200" class="block-ticket-name">
        <input type="email" name="email" value="{{email}}" placeholder="E-mail" aria-label="Ticket holder's e-mail" required class="block-ticket-email">
        <button type="submit" class="block-ticket-save">{{#named}}Change{{/named}}{{^named}}Name{{/named}}</button>
        </form></td>{{/canName}}
        {{^canName}}<td class="block-ticket-name">{{#named}}{{name}}{{/named}}{{^named}}(unnamed){{/named}}</td><td>{{email}}</td>{{/canName}}
        <td>{{mail}}</td><td>{{#checkedIn}}yes{{/checkedIn}}</td></tr>{{/tickets}}
        </tbody>
        </table>
        {{#isOrganizer}}<section>
        <h2>Change the block</h2>
        <form method="post" action="/admin/ticket-blocks/{{id}}" class="card" id="block-change-form">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label>Partner <input type="text" name="partner" value="{{form.partner}}" required maxlength="80"></label>
        <label>Kind <select name="kind">{{#kinds}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{title}}</option>{{/kinds}}</select></label>
        <label>Tickets <input type="number" name="size" id="block-change-size" value="{{form.size}}" min="0" max="5000" required></label>
        <label>Naming deadline <input type="datetime-local" name="namingDeadline" value="{{form.namingDeadline}}" required></label>
        <label><input type="checkbox" name="doorNaming" id="block-change-door-naming"{{#doorNaming}} checked{{/doorNaming}}> Door staff may name an unnamed ticket</label>
        <fieldset><legend>Managers</legend>{{#managers}}<label><input type="checkbox" name="manager-{{id}}"{{#checked}} checked{{/checked}}> {{name}}</label>{{/managers}}</fieldset>
        <button type="submit" id="block-change">Save the block</button>
        </form>
        <p class="hint">A block shrinks by its unnamed tickets only.</p>
        </section>{{/isOrganizer}}
        """

    static let leads = """
        <p class="crumbs"><a href="/admin/events">Events</a> › {{event}} ›</p>
        <h1>Leads · {{booth}}</h1>
        <p><a href="/admin/booths/{{boothId}}/leads.csv" id="leads-csv-link">Leads (CSV)</a></p>
        <table class="list" id="leads">
        <thead><tr><th>Captured</th><th>Attendee</th><th>E-mail</th><th>Rating</th><th>Notes</th>{{#questions}}<th>{{.}}</th>{{/questions}}<th>By</th></tr></thead>
        <tbody>
        {{#leads}}<tr><td>{{at}}</td><td>{{attendee}}</td><td>{{email}}</td><td>{{rating}}</td><td>{{notes}}</td>{{#answers}}<td>{{.}}</td>{{/answers}}<td>{{by}}</td></tr>{{/leads}}
        {{^leads}}<tr><td colspan="6">No leads yet. Exhibitors capture them by scanning attendees' badges at the booth.</td></tr>{{/leads}}
        </tbody>
        </table>
        <p class="hint">An attendee who does not share their contact details shows as their ticket's opaque id; the organizer records it when they agree, and the lead shows them from then on.</p>
        """

    static let ticketMails = """
        <p class="crumbs"><a href="/admin/events">Events</a> › <a href="/admin/events/{{event.id}}">{{event.name}}</a> ›</p>
        <h1>Tickets by e-mail</h1>
        <p class="count" id="mail-summary">{{sent}} sent, {{waiting}} waiting, {{failed}} not sent</p>
        <table class="list" id="ticket-mails">
        <thead><tr><th>Guest</th><th>E-mail</th><th>Status</th><th>Tries</th><th>Last try</th><th>Why not</th><th></th></tr></thead>
        <tbody>
        {{#deliveries}}<tr><td>{{guest}}</td><td>{{email}}</td><td class="mail-state">{{state}}</td><td>{{attempts}}</td><td>{{at}}</td><td>{{error}}</td>
        <td>{{#canEdit}}<form method="post" action="/admin/events/{{event.id}}/ticket-mails/{{guestId}}/resend" class="inline-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><button type="submit" class="resend">send again</button></form>{{/canEdit}}</td></tr>{{/deliveries}}
        {{^deliveries}}<tr><td colspan="7">No ticket has been e-mailed yet: "E-mail the tickets" on the event's page sends them, or the guest list's button for the guests it shows.</td></tr>{{/deliveries}}
        </tbody>
        </table>
        """

    static let problem = """
        <h1>{{heading}}</h1>
        <p>{{sentence}}</p>
        <p><a href="{{back}}">Back</a></p>
        """

    static let confirm = """
        <h1>{{heading}}</h1>
        <p id="confirm-sentence">{{sentence}}</p>
        <form method="post" action="{{action}}" class="inline-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="confirm" value="{{confirm}}">
        <button type="submit" id="confirm-anyway">{{button}}</button></form>
        <p><a href="{{back}}">Back</a></p>
        """

    /// Every template, registered by name (`eventFields` is a partial of two pages).
    /// Every template by the name the pages render it under.
    static let all: [String: String] = [
        "layout": layout, "signIn": signIn, "singleSignOn": singleSignOn, "singleSignOnDone": singleSignOnDone,
        "events": events, "eventFields": eventFields, "event": event,
        "guests": guests, "import": importPage, "problem": problem, "staff": staff, "confirm": confirm,
        "dashboard": dashboard, "guest": guest, "audit": audit, "walkIns": walkIns, "badge": badge, "zones": zones,
        "pickup": pickup, "booths": booths, "leads": leads, "ticketBlocks": ticketBlocks, "ticketBlock": ticketBlock,
        "ticketMails": ticketMails, "settings": settings, "signInCode": signInCode, "password": password,
        "twoFactor": twoFactor,
        "twoFactorSetup": twoFactorSetup, "twoFactorCodes": twoFactorCodes, "contacts": contacts,
        "activities": activities, "devices": devices, "contact": contact,
    ]

    /// The bar's sections (its navigation).
    enum Section { case events, staff, settings, twoFactor, mentoring, devices }

    /// The section a page belongs to; nil for pages of no section (sign-in, a refusal).
    static func section(of template: String) -> Section? {
        switch template {
        case "staff": .staff
        case "settings": .settings
        case "devices": .devices
        case "contacts", "contact", "activities": .mentoring
        case "twoFactor", "twoFactorSetup", "twoFactorCodes": .twoFactor
        case "signIn", "signInCode", "password", "singleSignOn", "singleSignOnDone", "problem", "confirm": nil
        default: .events
        }
    }

    static func library() throws -> MustacheLibrary {
        var library = MustacheLibrary()
        for (name, text) in all {
            try library.register(text, named: name)
        }
        return library
    }
}
