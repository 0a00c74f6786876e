import OutpostCore
import OutpostProtocol

/// Every page, form and asset of the organizer console (under `/admin`), described once like
/// the API's routes (``API``): the router registers them, and the console's links, redirects
/// and forms are made from them.
package enum ConsolePages {
    /// An HTML page (or a file: CSV, PDF, an event stream, an asset). Written out as
    /// `Endpoint<NoBody, Bytes>` where it has no path parameters: an empty pack cannot be inferred.
    package typealias Page<each Parameter: PathValue> = Endpoint<NoBody, Bytes, repeat each Parameter>
    /// A form's target: the browser posts its fields, the console answers with a redirect or a page.
    package typealias Form<each Parameter: PathValue> = Endpoint<FormFields, Bytes, repeat each Parameter>

    package static let home = Endpoint<NoBody, Bytes>(.get, "/admin")
    package static let signInPage = Endpoint<NoBody, Bytes>(.get, "/admin/signin")
    package static let signIn = Endpoint<FormFields, Bytes>(.post, "/admin/signin")
    package static let signOut = Endpoint<FormFields, Bytes>(.post, "/admin/signout")
    /// A password sign-in's second step: a code from the app, or a recovery code.
    package static let signInCode = Endpoint<FormFields, Bytes>(.post, "/admin/signin/code")
    package static let passwordPage = Endpoint<NoBody, Bytes>(.get, "/admin/password")
    package static let setPassword = Endpoint<FormFields, Bytes>(.post, "/admin/password")
    /// The signed-in user's two-factor sign-in: its state, turning it on, its first code.
    package static let twoFactor = Endpoint<NoBody, Bytes>(.get, "/admin/two-factor")
    package static let enrollTwoFactor = Endpoint<FormFields, Bytes>(.post, "/admin/two-factor")
    package static let confirmTwoFactor = Endpoint<FormFields, Bytes>(.post, "/admin/two-factor/confirm")
    package static let singleSignOn = Endpoint<FormFields, Bytes>(.post, "/admin/sso")
    package static let singleSignOnDone = Endpoint<NoBody, Bytes>(.get, "/admin/sso/done")
    package static let events = Endpoint<NoBody, Bytes>(.get, "/admin/events")
    package static let createEvent = Endpoint<FormFields, Bytes>(.post, "/admin/events")
    package static let event = Page<EventID>(.get, "/admin/events/{eventId}")
    package static let updateEvent = Form<EventID>(.post, "/admin/events/{eventId}")
    package static let cloneEvent = Form<EventID>(.post, "/admin/events/{eventId}/clone")
    /// The tenant's settings (organizer): the offline unlock window, new events' time zone.
    package static let settings = Endpoint<NoBody, Bytes>(.get, "/admin/settings")
    package static let saveSettings = Endpoint<FormFields, Bytes>(.post, "/admin/settings")
    package static let createAccessType = Form<EventID>(.post, "/admin/events/{eventId}/access-types")
    /// The event's guest fields: one added, one removed (each the API's whole list, changed).
    package static let addGuestField = Form<EventID>(.post, "/admin/events/{eventId}/guest-fields")
    package static let removeGuestField = Form<EventID, GuestFieldID>(
        .post, "/admin/events/{eventId}/guest-fields/{fieldId}/remove")
    package static let assignStaff = Form<EventID>(.post, "/admin/events/{eventId}/staff")
    package static let unassignStaff = Form<EventID, UserID>(.post, "/admin/events/{eventId}/staff/{userId}/remove")
    package static let setUpKiosk = Form<EventID>(.post, "/admin/events/{eventId}/kiosk")
    package static let staff = Endpoint<NoBody, Bytes>(.get, "/admin/staff")
    package static let createUser = Endpoint<FormFields, Bytes>(.post, "/admin/staff")
    package static let removeUser = Form<UserID>(.post, "/admin/staff/{userId}/remove")
    package static let updateUser = Form<UserID>(.post, "/admin/staff/{userId}")
    package static let signOutUser = Form<UserID>(.post, "/admin/staff/{userId}/sign-out")
    package static let sendPasswordLink = Form<UserID>(.post, "/admin/staff/{userId}/password-link")
    package static let turnOffUserTwoFactor = Form<UserID>(.post, "/admin/staff/{userId}/two-factor/off")
    package static let dashboard = Page<EventID>(.get, "/admin/events/{eventId}/dashboard")
    package static let dashboardStream = Page<EventID>(.get, "/admin/events/{eventId}/dashboard/stream")
    package static let tickets = Page<EventID>(.get, "/admin/events/{eventId}/tickets.pdf")
    package static let guests = Page<EventID>(.get, "/admin/events/{eventId}/guests")
    /// The attendee list as CSV (the guest list's filters), and its tickets mailed to all it shows.
    package static let guestsCSV = Page<EventID>(.get, "/admin/events/{eventId}/guests.csv")
    package static let mailGuests = Form<EventID>(.post, "/admin/events/{eventId}/guests/mail")
    package static let bulkGuests = Form<EventID>(.post, "/admin/events/{eventId}/guests/bulk")
    package static let guest = Page<EventID, GuestID>(.get, "/admin/events/{eventId}/guests/{guestId}")
    package static let updateGuest = Form<EventID, GuestID>(.post, "/admin/events/{eventId}/guests/{guestId}")
    package static let cancelGuest = Form<EventID, GuestID>(.post, "/admin/events/{eventId}/guests/{guestId}/cancel")
    /// The check-in desk: check a guest in from the console, or take a check-in back with a reason.
    package static let checkInGuest = Form<EventID, GuestID>(.post, "/admin/events/{eventId}/guests/{guestId}/checkin")
    package static let undoCheckIn = Form<EventID, GuestID>(
        .post, "/admin/events/{eventId}/guests/{guestId}/checkin/undo")
    package static let audit = Page<EventID>(.get, "/admin/events/{eventId}/audit")
    package static let auditCSV = Page<EventID>(.get, "/admin/events/{eventId}/audit.csv")
    package static let checkInsCSV = Page<EventID>(.get, "/admin/events/{eventId}/checkins.csv")
    package static let walkIns = Page<EventID>(.get, "/admin/events/{eventId}/walkins")
    package static let walkInsCSV = Page<EventID>(.get, "/admin/events/{eventId}/walkins.csv")
    package static let zones = Page<EventID>(.get, "/admin/events/{eventId}/zones")
    package static let addZone = Form<EventID>(.post, "/admin/events/{eventId}/zones")
    package static let setEFx = Form<EventID>(.post, "/admin/events/{eventId}/efx")
    package static let changeZone = Form<EventID, ZoneID>(.post, "/admin/events/{eventId}/zones/{zoneId}")
    package static let removeZone = Form<EventID, ZoneID>(.post, "/admin/events/{eventId}/zones/{zoneId}/remove")
    package static let setStation = Form<EventID>(.post, "/admin/events/{eventId}/stations")
    package static let pickup = Page<EventID>(.get, "/admin/events/{eventId}/pickup")
    package static let addPickupItem = Form<EventID>(.post, "/admin/events/{eventId}/pickup")
    package static let importPickupEntitlements = Form<EventID>(.post, "/admin/events/{eventId}/pickup/entitlements")
    /// The attendee's own page (no sign-in; the link in their ticket mail is the key): whether
    /// they share their contact details with exhibitors.
    package static let attendeeContact = Page<String>(.get, "/attendee/contact/{token}")
    package static let setAttendeeContact = Form<String>(.post, "/attendee/contact/{token}")
    package static let booths = Page<EventID>(.get, "/admin/events/{eventId}/booths")
    package static let addBooth = Form<EventID>(.post, "/admin/events/{eventId}/booths")
    package static let boothLeads = Page<BoothID>(.get, "/admin/booths/{boothId}/leads")
    package static let boothLeadsCSV = Page<BoothID>(.get, "/admin/booths/{boothId}/leads.csv")
    package static let ticketBlocks = Page<EventID>(.get, "/admin/events/{eventId}/ticket-blocks")
    package static let allocateTicketBlock = Form<EventID>(.post, "/admin/events/{eventId}/ticket-blocks")
    package static let ticketBlock = Page<TicketBlockID>(.get, "/admin/ticket-blocks/{blockId}")
    package static let changeTicketBlock = Form<TicketBlockID>(.post, "/admin/ticket-blocks/{blockId}")
    package static let nameBlockTicket = Form<TicketBlockID, GuestID>(
        .post, "/admin/ticket-blocks/{blockId}/tickets/{guestId}")
    package static let badge = Page<EventID>(.get, "/admin/events/{eventId}/badge")
    package static let setBadge = Form<EventID>(.post, "/admin/events/{eventId}/badge")
    package static let badgePreview = Page<EventID>(.get, "/admin/events/{eventId}/badge/preview.png")
    package static let ticketMails = Page<EventID>(.get, "/admin/events/{eventId}/ticket-mails")
    package static let mailTickets = Form<EventID>(.post, "/admin/events/{eventId}/ticket-mails")
    package static let resendTicket = Form<EventID, GuestID>(
        .post, "/admin/events/{eventId}/ticket-mails/{guestId}/resend")
    package static let importPage = Page<EventID>(.get, "/admin/events/{eventId}/import")
    package static let importGuests = Form<EventID>(.post, "/admin/events/{eventId}/import")
    package static let importTemplate = Page<EventID>(.get, "/admin/events/{eventId}/import/template.csv")
    /// The coordinator's pages (peer mentoring): contacts and the activities report.
    package static let contacts = Endpoint<NoBody, Bytes>(.get, "/admin/contacts")
    package static let createContact = Endpoint<FormFields, Bytes>(.post, "/admin/contacts")
    package static let assignMentor = Form<ContactID>(.post, "/admin/contacts/{contactId}/mentors")
    package static let eraseContact = Form<ContactID>(.post, "/admin/contacts/{contactId}/erase")
    package static let contact = Page<ContactID>(.get, "/admin/contacts/{contactId}")
    package static let updateContact = Form<ContactID>(.post, "/admin/contacts/{contactId}")
    package static let activities = Endpoint<NoBody, Bytes>(.get, "/admin/activities")
    package static let devices = Endpoint<NoBody, Bytes>(.get, "/admin/devices")
    package static let nameDevice = Form<String>(.post, "/admin/devices/{deviceId}/name")
    package static let activitiesCSV = Endpoint<NoBody, Bytes>(.get, "/admin/activities.csv")
    package static let style = Endpoint<NoBody, Bytes>(.get, "/admin/static/console.css")
    package static let importScript = Endpoint<NoBody, Bytes>(.get, "/admin/static/import.js")
    package static let dashboardScript = Endpoint<NoBody, Bytes>(.get, "/admin/static/dashboard.js")
    package static let eventsScript = Endpoint<NoBody, Bytes>(.get, "/admin/static/events.js")
}

/// A form's fields, as a browser posts them (`application/x-www-form-urlencoded`).
package enum FormFields {}

extension ConsolePages {
    /// Every page above, in the order described.
    package static let all: [Route] = [
        home.route,
        signInPage.route,
        signIn.route,
        signOut.route,
        signInCode.route,
        passwordPage.route,
        setPassword.route,
        twoFactor.route,
        enrollTwoFactor.route,
        confirmTwoFactor.route,
        singleSignOn.route,
        singleSignOnDone.route,
        events.route,
        createEvent.route,
        event.route,
        updateEvent.route,
        cloneEvent.route,
        settings.route,
        saveSettings.route,
        createAccessType.route,
        assignStaff.route,
        unassignStaff.route,
        setUpKiosk.route,
        staff.route,
        createUser.route,
        removeUser.route,
        updateUser.route,
        signOutUser.route,
        turnOffUserTwoFactor.route,
        sendPasswordLink.route,
        dashboard.route,
        dashboardStream.route,
        tickets.route,
        guests.route,
        guestsCSV.route,
        mailGuests.route,
        bulkGuests.route,
        guest.route,
        updateGuest.route,
        cancelGuest.route,
        addGuestField.route,
        removeGuestField.route,
        checkInGuest.route,
        undoCheckIn.route,
        audit.route,
        auditCSV.route,
        checkInsCSV.route,
        walkIns.route,
        walkInsCSV.route,
        zones.route,
        addZone.route,
        setEFx.route,
        changeZone.route,
        removeZone.route,
        setStation.route,
        pickup.route,
        addPickupItem.route,
        importPickupEntitlements.route,
        attendeeContact.route,
        setAttendeeContact.route,
        booths.route,
        addBooth.route,
        boothLeads.route,
        boothLeadsCSV.route,
        ticketBlocks.route,
        allocateTicketBlock.route,
        ticketBlock.route,
        changeTicketBlock.route,
        nameBlockTicket.route,
        badge.route,
        setBadge.route,
        badgePreview.route,
        ticketMails.route,
        mailTickets.route,
        resendTicket.route,
        importPage.route,
        importGuests.route,
        importTemplate.route,
        contacts.route,
        createContact.route,
        assignMentor.route,
        eraseContact.route,
        contact.route,
        updateContact.route,
        activities.route,
        devices.route,
        nameDevice.route,
        activitiesCSV.route,
        style.route,
        importScript.route,
        dashboardScript.route,
        eventsScript.route,
    ]
}
