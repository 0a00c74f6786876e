import OutpostCore

/// Every route of the HTTP API, described once (see ``Endpoint``): the server registers its
/// handlers under these, and the device, the lab client and the console build their requests
/// from them. The names are `openapi.yaml`'s operation ids; a test holds the two tables equal.
public enum API {
    // Operations.
    public static let health = Endpoint<NoBody, HealthStatus>(.get, "/health")
    public static let metrics = Endpoint<NoBody, Bytes>(.get, "/metrics")
    public static let clientPolicy = Endpoint<NoBody, ClientPolicy>(.get, "/v1/client-policy")

    // Sign-in.
    public static let signIn = Endpoint<SignInRequest, TokenPair>(.post, "/v1/auth/signin")
    public static let refresh = Endpoint<RefreshRequest, TokenPair>(.post, "/v1/auth/refresh")
    public static let signOut = Endpoint<RefreshRequest, NoBody>(.post, "/v1/auth/signout")
    public static let emailCode = Endpoint<EmailCodeRequest, NoBody>(.post, "/v1/auth/email-code")
    public static let emailSignIn = Endpoint<EmailSignInRequest, TokenPair>(.post, "/v1/auth/email-signin")
    public static let signInCode = Endpoint<SignInCodeRequest, TokenPair>(.post, "/v1/auth/signin/code")

    // Two-factor sign-in (TOTP) of the caller's own account.
    public static let twoFactor = Endpoint<NoBody, TwoFactorStatus>(.get, "/v1/me/two-factor")
    public static let enrollTwoFactor = Endpoint<TwoFactorEnrollRequest, TwoFactorEnrollment>(
        .post, "/v1/me/two-factor")
    public static let confirmTwoFactor = Endpoint<TwoFactorConfirmRequest, RecoveryCodes>(
        .post, "/v1/me/two-factor/confirm")

    // Single sign-on (OpenID Connect): the provider for an e-mail, the browser's start and the
    // provider's callback (both redirects), and the app's code for a token pair.
    public static let ssoProvider = Endpoint<NoBody, SSOProviderInfo>(.get, "/v1/auth/sso")
    public static let ssoStart = Endpoint<NoBody, NoBody>(.get, "/v1/auth/sso/start")
    public static let ssoCallback = Endpoint<NoBody, NoBody, TenantID>(.get, "/v1/auth/sso/{tenantId}/callback")
    public static let ssoToken = Endpoint<SSOTokenRequest, TokenPair>(.post, "/v1/auth/sso/token")

    // Events.
    public static let listEvents = Endpoint<NoBody, EventList>(.get, "/v1/events")
    public static let createEvent = Endpoint<CreateEventRequest, EventInfo>(.post, "/v1/events")
    public static let getEvent = Endpoint<NoBody, EventDetail, EventID>(.get, "/v1/events/{eventId}")
    public static let updateEvent = Endpoint<UpdateEventRequest, EventInfo, EventID>(.patch, "/v1/events/{eventId}")
    public static let cloneEvent = Endpoint<CloneEventRequest, EventInfo, EventID>(.post, "/v1/events/{eventId}/clone")
    public static let createAccessType = Endpoint<CreateAccessTypeRequest, AccessTypeInfo, EventID>(
        .post, "/v1/events/{eventId}/access-types")
    public static let listStaff = Endpoint<NoBody, UserList, EventID>(.get, "/v1/events/{eventId}/staff")
    public static let assignStaff = Endpoint<NoBody, NoBody, EventID, UserID>(
        .put, "/v1/events/{eventId}/staff/{userId}")
    public static let unassignStaff = Endpoint<NoBody, NoBody, EventID, UserID>(
        .delete, "/v1/events/{eventId}/staff/{userId}")
    public static let stats = Endpoint<NoBody, EventStats, EventID>(.get, "/v1/events/{eventId}/stats")
    public static let audit = Endpoint<NoBody, AuditPage, EventID>(.get, "/v1/events/{eventId}/audit")
    public static let refusedAttempts = Endpoint<NoBody, AuditPage>(.get, "/v1/audit/refused")
    public static let exportCheckIns = Endpoint<NoBody, Bytes, EventID>(.get, "/v1/events/{eventId}/checkins.csv")
    public static let exportAudit = Endpoint<NoBody, Bytes, EventID>(.get, "/v1/events/{eventId}/audit.csv")
    public static let exportGuests = Endpoint<NoBody, Bytes, EventID>(.get, "/v1/events/{eventId}/guests.csv")

    // The door.
    public static let roster = Endpoint<NoBody, RosterPage, EventID>(.get, "/v1/events/{eventId}/roster")
    public static let checkIn = Endpoint<CheckInRequest, CheckInResponse, EventID>(
        .post, "/v1/events/{eventId}/checkins")
    public static let checkInBatch = Endpoint<CheckInBatchRequest, CheckInBatchResponse, EventID>(
        .post, "/v1/events/{eventId}/checkins:batch")
    public static let undoCheckIn = Endpoint<UndoCheckInRequest, UndoneCheckIn, EventID, CheckInID>(
        .post, "/v1/events/{eventId}/checkins/{checkInId}/undo")
    public static let setUpKiosk = Endpoint<KioskSetupRequest, NoBody, EventID>(.put, "/v1/events/{eventId}/kiosk")
    public static let reportDevice = Endpoint<DeviceReport, NoBody, EventID, String>(
        .put, "/v1/events/{eventId}/devices/{deviceId}")
    public static let dashboard = Endpoint<NoBody, DoorDashboard, EventID>(.get, "/v1/events/{eventId}/dashboard")

    // Walk-ins.
    public static let addWalkIn = Endpoint<WalkInRequest, WalkInResponse, EventID>(
        .post, "/v1/events/{eventId}/walkins")
    public static let listWalkIns = Endpoint<NoBody, WalkInList, EventID>(.get, "/v1/events/{eventId}/walkins")
    public static let walkInSummary = Endpoint<NoBody, WalkInSummary, EventID>(
        .get, "/v1/events/{eventId}/walkins/summary")
    public static let exportWalkInSummary = Endpoint<NoBody, Bytes, EventID>(
        .get, "/v1/events/{eventId}/walkins/summary.csv")
    public static let leaseWalkIns = Endpoint<WalkInLeaseRequest, WalkInLease, EventID>(
        .post, "/v1/events/{eventId}/walkin-leases")
    public static let sealWalkInLease = Endpoint<WalkInSealRequest, WalkInLease, EventID, WalkInLeaseID>(
        .post, "/v1/events/{eventId}/walkin-leases/{leaseId}/seal")

    // Notes at the door.
    public static let writeNote = Endpoint<NoteRevision, StoredNote, EventID, NoteRevisionID>(
        .put, "/v1/events/{eventId}/notes/{revisionId}")
    public static let listNotes = Endpoint<NoBody, NotePage, EventID>(.get, "/v1/events/{eventId}/notes")

    // Badges.
    public static let badgeLayout = Endpoint<NoBody, BadgeLayout, EventID>(.get, "/v1/events/{eventId}/badge-layout")
    public static let setBadgeLayout = Endpoint<BadgeLayout, BadgeLayout, EventID>(
        .put, "/v1/events/{eventId}/badge-layout")
    public static let recordBadgePrint = Endpoint<BadgePrintRecord, StoredBadgePrint, EventID, BadgePrintID>(
        .put, "/v1/events/{eventId}/badge-prints/{printId}")
    public static let listBadgePrints = Endpoint<NoBody, BadgePrintList, EventID>(
        .get, "/v1/events/{eventId}/badge-prints")

    // Zone access control (EFx): the zones and their rules, the passages stations record, the counts.
    public static let zones = Endpoint<NoBody, ZoneList, EventID>(.get, "/v1/events/{eventId}/zones")
    public static let setZones = Endpoint<ZoneList, ZoneList, EventID>(.put, "/v1/events/{eventId}/zones")
    public static let recordZonePassage = Endpoint<ZonePassage, StoredZonePassage, EventID, ZonePassageID>(
        .put, "/v1/events/{eventId}/zone-passages/{passageId}")
    public static let zoneOccupancy = Endpoint<NoBody, ZoneReport, EventID>(
        .get, "/v1/events/{eventId}/zone-occupancy")

    // Product pickup (EFx): the items and allowances, guests' own entitlements by CSV, what
    // stations hand out, the stock and over-redemptions.
    public static let pickupItems = Endpoint<NoBody, PickupCatalog, EventID>(.get, "/v1/events/{eventId}/pickup-items")
    public static let setPickupItems = Endpoint<PickupCatalog, PickupCatalog, EventID>(
        .put, "/v1/events/{eventId}/pickup-items")
    public static let importPickupEntitlements = Endpoint<Bytes, ImportResult, EventID>(
        .post, "/v1/events/{eventId}/pickup-entitlements:import")
    public static let recordPickup = Endpoint<PickupRedemption, StoredPickupRedemption, EventID, PickupRedemptionID>(
        .put, "/v1/events/{eventId}/pickup-redemptions/{redemptionId}")
    public static let pickupReport = Endpoint<NoBody, PickupReport, EventID>(
        .get, "/v1/events/{eventId}/pickup-report")

    // Lead retrieval (EFx): booths and their exhibitors, the leads they capture, consent.
    public static let booths = Endpoint<NoBody, BoothList, EventID>(.get, "/v1/events/{eventId}/booths")
    public static let setBooths = Endpoint<BoothList, BoothList, EventID>(.put, "/v1/events/{eventId}/booths")
    public static let myBooths = Endpoint<NoBody, MyBooths>(.get, "/v1/me/booths")
    public static let showBooth = Endpoint<NoBody, MyBooth, BoothID>(.get, "/v1/booths/{boothId}")
    public static let writeLead = Endpoint<LeadWrite, Lead, BoothID, LeadID>(
        .put, "/v1/booths/{boothId}/leads/{leadId}")
    public static let leads = Endpoint<NoBody, LeadList, BoothID>(.get, "/v1/booths/{boothId}/leads")
    public static let exportLeads = Endpoint<NoBody, Bytes, BoothID>(.get, "/v1/booths/{boothId}/leads.csv")
    // EFx stations: which station the organizer chose for each user at an event.
    public static let stations = Endpoint<NoBody, StationList, EventID>(.get, "/v1/events/{eventId}/stations")
    public static let setStation = Endpoint<StationAssignment, StaffStation, EventID, UserID>(
        .put, "/v1/events/{eventId}/stations/{userId}")
    public static let clearStation = Endpoint<NoBody, NoBody, EventID, UserID>(
        .delete, "/v1/events/{eventId}/stations/{userId}")
    public static let myStation = Endpoint<NoBody, MyStation, EventID>(.get, "/v1/events/{eventId}/my-station")
    // The venue mesh: a device's certificate for the event, and what the authority revoked.
    public static let meshCertificate = Endpoint<MeshCertificateRequest, MeshCredentials, EventID>(
        .post, "/v1/events/{eventId}/mesh/certificate")
    public static let meshRevocations = Endpoint<NoBody, MeshRevocationList, EventID>(
        .get, "/v1/events/{eventId}/mesh/revocations")
    public static let meshEntries = Endpoint<MeshUpload, MeshUploadAnswer, EventID>(
        .post, "/v1/events/{eventId}/mesh/entries")
    // Ticket blocks (EF-069): blocks of tickets partners name until a deadline.
    public static let ticketBlocks = Endpoint<NoBody, TicketBlockList, EventID>(
        .get, "/v1/events/{eventId}/ticket-blocks")
    public static let allocateTicketBlock = Endpoint<TicketBlockAllocation, TicketBlockDetail, EventID>(
        .post, "/v1/events/{eventId}/ticket-blocks")
    public static let myTicketBlocks = Endpoint<NoBody, MyTicketBlocks>(.get, "/v1/me/ticket-blocks")
    public static let ticketBlock = Endpoint<NoBody, TicketBlockDetail, TicketBlockID>(
        .get, "/v1/ticket-blocks/{blockId}")
    public static let changeTicketBlock = Endpoint<TicketBlockAllocation, TicketBlockDetail, TicketBlockID>(
        .patch, "/v1/ticket-blocks/{blockId}")
    public static let nameBlockTicket = Endpoint<TicketNaming, TicketNamed, TicketBlockID, GuestID>(
        .put, "/v1/ticket-blocks/{blockId}/tickets/{guestId}")
    public static let setContactConsent = Endpoint<ContactConsent, ContactConsent, EventID, GuestID>(
        .put, "/v1/events/{eventId}/guests/{guestId}/contact-consent")

    // Guests and tickets.
    public static let listGuests = Endpoint<NoBody, GuestPage, EventID>(.get, "/v1/events/{eventId}/guests")
    public static let createGuest = Endpoint<CreateGuestRequest, GuestInfo, EventID>(
        .post, "/v1/events/{eventId}/guests")
    public static let showGuest = Endpoint<NoBody, GuestInfo, EventID, GuestID>(
        .get, "/v1/events/{eventId}/guests/{guestId}")
    public static let updateGuest = Endpoint<UpdateGuestRequest, GuestInfo, EventID, GuestID>(
        .patch, "/v1/events/{eventId}/guests/{guestId}")
    public static let importGuests = Endpoint<Bytes, ImportResult, EventID>(
        .post, "/v1/events/{eventId}/guests:import")
    public static let bulkUpdateGuests = Endpoint<BulkGuestUpdate, BulkGuestResult, EventID>(
        .post, "/v1/events/{eventId}/guests:bulk")
    public static let guestFields = Endpoint<NoBody, GuestFieldList, EventID>(
        .get, "/v1/events/{eventId}/guest-fields")
    public static let setGuestFields = Endpoint<GuestFieldList, GuestFieldList, EventID>(
        .put, "/v1/events/{eventId}/guest-fields")
    public static let ticket = Endpoint<NoBody, Bytes, EventID, GuestID>(
        .get, "/v1/events/{eventId}/guests/{guestId}/ticket")
    public static let ticketSheet = Endpoint<NoBody, Bytes, EventID>(.get, "/v1/events/{eventId}/tickets.pdf")
    public static let ticketMails = Endpoint<NoBody, TicketMailList, EventID>(
        .get, "/v1/events/{eventId}/ticket-mails")
    public static let mailTickets = Endpoint<TicketMailRequest, TicketMailReport, EventID>(
        .post, "/v1/events/{eventId}/ticket-mails")

    // People.
    public static let listUsers = Endpoint<NoBody, UserList>(.get, "/v1/users")
    public static let userChanges = Endpoint<NoBody, UserChangeList>(.get, "/v1/user-changes")
    public static let createUser = Endpoint<CreateUserRequest, UserInfo>(.post, "/v1/users")
    public static let removeUser = Endpoint<NoBody, NoBody, UserID>(.delete, "/v1/users/{userId}")
    public static let resetPassword = Endpoint<PasswordResetRequest, NoBody, UserID>(
        .put, "/v1/users/{userId}/password")
    public static let updateUser = Endpoint<UpdateUserRequest, UserInfo, UserID>(.patch, "/v1/users/{userId}")
    public static let signOutUser = Endpoint<NoBody, NoBody, UserID>(.post, "/v1/users/{userId}/sign-out")
    public static let sendPasswordLink = Endpoint<NoBody, PasswordLinkSent, UserID>(
        .post, "/v1/users/{userId}/password-link")
    public static let usePasswordLink = Endpoint<PasswordLinkUse, NoBody>(.post, "/v1/auth/password-link")
    public static let turnOffUserTwoFactor = Endpoint<NoBody, NoBody, UserID>(.delete, "/v1/users/{userId}/two-factor")
    public static let listDevices = Endpoint<NoBody, DeviceList>(.get, "/v1/devices")
    public static let nameDevice = Endpoint<DeviceName, DeviceList.Device, String>(.put, "/v1/devices/{deviceId}/name")
    public static let tenantSettings = Endpoint<NoBody, TenantSettings>(.get, "/v1/tenant/settings")
    public static let setTenantSettings = Endpoint<TenantSettings, TenantSettings>(.put, "/v1/tenant/settings")
    public static let ssoSettings = Endpoint<NoBody, SSOSettings>(.get, "/v1/tenant/sso")
    public static let setSSOSettings = Endpoint<SSOSettings, SSOSettings>(.put, "/v1/tenant/sso")
    public static let removeSSOSettings = Endpoint<NoBody, NoBody>(.delete, "/v1/tenant/sso")

    // The signed-in user.
    public static let reportUserDevice = Endpoint<DeviceReport, NoBody, String>(.put, "/v1/me/devices/{deviceId}")
    public static let consent = Endpoint<NoBody, ConsentRecord>(.get, "/v1/me/consent")
    public static let setConsent = Endpoint<ConsentRecord, ConsentRecord>(.put, "/v1/me/consent")
    public static let exportMyData = Endpoint<NoBody, AccountExport>(.get, "/v1/me/export")
    public static let deleteMe = Endpoint<NoBody, NoBody>(.delete, "/v1/me")

    // Peer mentors.
    public static let listContacts = Endpoint<NoBody, ContactList>(.get, "/v1/contacts")
    public static let createContact = Endpoint<CreateContactRequest, Contact>(.post, "/v1/contacts")
    public static let contactChanges = Endpoint<NoBody, ContactChangeList>(.get, "/v1/contacts/changes")
    public static let updateContact = Endpoint<UpdateContactRequest, Contact, ContactID>(
        .patch, "/v1/contacts/{contactId}")
    public static let eraseContact = Endpoint<NoBody, NoBody, ContactID>(.delete, "/v1/contacts/{contactId}")
    public static let revealContact = Endpoint<NoBody, ContactSensitive, ContactID>(
        .post, "/v1/contacts/{contactId}/reveal")
    public static let contactReveals = Endpoint<NoBody, ContactRevealList, ContactID>(
        .get, "/v1/contacts/{contactId}/reveals")
    public static let assignMentor = Endpoint<NoBody, NoBody, ContactID, UserID>(
        .put, "/v1/contacts/{contactId}/mentors/{userId}")
    public static let unassignMentor = Endpoint<NoBody, NoBody, ContactID, UserID>(
        .delete, "/v1/contacts/{contactId}/mentors/{userId}")
    public static let listActivities = Endpoint<NoBody, ActivityList>(.get, "/v1/activities")
    public static let writeActivity = Endpoint<ActivityWrite, Activity, ActivityID>(
        .put, "/v1/activities/{activityId}")
    public static let deleteActivity = Endpoint<NoBody, NoBody, ActivityID>(.delete, "/v1/activities/{activityId}")

    // Time tracking.
    public static let myDays = Endpoint<NoBody, DaySubmissionList>(.get, "/v1/tracking/days")
    public static let submitDay = Endpoint<DaySubmissionRequest, DaySubmission, String>(
        .put, "/v1/tracking/days/{date}")
    public static let workerDays = Endpoint<NoBody, DaySubmissionList, UserID>(
        .get, "/v1/tracking/users/{userId}/days")
    public static let finaliseWeek = Endpoint<NoBody, FinalisedWeek, UserID, String>(
        .post, "/v1/tracking/users/{userId}/weeks/{week}/finalise")
}

extension API {
    /// The routes that sign in, renew or end a session: a 401 from one of them is the answer,
    /// not an expired token to renew.
    public static let signInRoutes: Set<Route> = [
        signIn.route, refresh.route, signOut.route, emailCode.route, emailSignIn.route, ssoToken.route,
        signInCode.route,
    ]

    /// Every route above, in the order described.
    public static let all: [Route] = [
        health.route,
        metrics.route,
        clientPolicy.route,
        signIn.route,
        refresh.route,
        signOut.route,
        emailCode.route,
        emailSignIn.route,
        signInCode.route,
        twoFactor.route,
        enrollTwoFactor.route,
        confirmTwoFactor.route,
        ssoProvider.route,
        ssoStart.route,
        ssoCallback.route,
        ssoToken.route,
        listEvents.route,
        createEvent.route,
        getEvent.route,
        updateEvent.route,
        cloneEvent.route,
        createAccessType.route,
        listStaff.route,
        assignStaff.route,
        unassignStaff.route,
        stats.route,
        audit.route,
        refusedAttempts.route,
        exportCheckIns.route,
        exportAudit.route,
        exportGuests.route,
        roster.route,
        checkIn.route,
        checkInBatch.route,
        undoCheckIn.route,
        setUpKiosk.route,
        reportDevice.route,
        dashboard.route,
        addWalkIn.route,
        listWalkIns.route,
        walkInSummary.route,
        exportWalkInSummary.route,
        leaseWalkIns.route,
        sealWalkInLease.route,
        writeNote.route,
        listNotes.route,
        badgeLayout.route,
        setBadgeLayout.route,
        recordBadgePrint.route,
        listBadgePrints.route,
        zones.route,
        setZones.route,
        recordZonePassage.route,
        zoneOccupancy.route,
        pickupItems.route,
        setPickupItems.route,
        importPickupEntitlements.route,
        recordPickup.route,
        pickupReport.route,
        booths.route,
        setBooths.route,
        myBooths.route,
        showBooth.route,
        stations.route,
        setStation.route,
        clearStation.route,
        myStation.route,
        meshCertificate.route,
        meshRevocations.route,
        meshEntries.route,
        ticketBlocks.route,
        allocateTicketBlock.route,
        myTicketBlocks.route,
        ticketBlock.route,
        changeTicketBlock.route,
        nameBlockTicket.route,
        writeLead.route,
        leads.route,
        exportLeads.route,
        setContactConsent.route,
        listGuests.route,
        guestFields.route,
        setGuestFields.route,
        bulkUpdateGuests.route,
        createGuest.route,
        showGuest.route,
        updateGuest.route,
        importGuests.route,
        ticket.route,
        ticketSheet.route,
        ticketMails.route,
        mailTickets.route,
        listUsers.route,
        userChanges.route,
        createUser.route,
        removeUser.route,
        resetPassword.route,
        updateUser.route,
        signOutUser.route,
        turnOffUserTwoFactor.route,
        sendPasswordLink.route,
        usePasswordLink.route,
        listDevices.route,
        nameDevice.route,
        tenantSettings.route,
        setTenantSettings.route,
        ssoSettings.route,
        setSSOSettings.route,
        removeSSOSettings.route,
        reportUserDevice.route,
        consent.route,
        setConsent.route,
        exportMyData.route,
        deleteMe.route,
        listContacts.route,
        createContact.route,
        contactChanges.route,
        updateContact.route,
        eraseContact.route,
        revealContact.route,
        contactReveals.route,
        assignMentor.route,
        unassignMentor.route,
        listActivities.route,
        writeActivity.route,
        deleteActivity.route,
        myDays.route,
        submitDay.route,
        workerDays.route,
        finaliseWeek.route,
    ]
}
