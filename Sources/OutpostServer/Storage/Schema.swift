/// The server schema, as an ordered list of frozen migrations.
///
/// Conventions shared by both dialects: ids are lower-case UUID text, timestamps are BIGINT
/// milliseconds since 1970, booleans are integers. Every rule that must hold across server
/// instances is a constraint here: one check-in row per (event, guest), one answer per
/// (tenant, Idempotency-Key), an audit log that refuses UPDATE and DELETE.
public enum Schema {
    public static let migrations: [Migration] = [
        v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24,
        v25, v26, v27, v28, v29, v30,
    ]

    /// The venue mesh's entries as doors hand them in (their own and, in custody, their peers'):
    /// each kept whole as its author signed it, once per (event, author, number), with the door
    /// that brought it; and what each door said of its mesh at its last upload (the entries it
    /// holds, the doors it met), for the dashboard's "meshed while offline". Authors and doors
    /// are device ids, users are named without a foreign key (an erased user's entries stay
    /// the event's record).
    static let v30 = Migration(version: 30, name: "venue mesh entries") { dialect in
        let blob = dialect == .postgres ? "BYTEA" : "BLOB"
        return [
            """
            CREATE TABLE mesh_entries (
                event_id TEXT NOT NULL REFERENCES events(id),
                author TEXT NOT NULL,
                seq BIGINT NOT NULL,
                entry_id \(blob) NOT NULL,
                guest_id TEXT NOT NULL,
                scanned_at BIGINT NOT NULL,
                user_id TEXT NOT NULL,
                uploaded_by TEXT NOT NULL,
                received_at BIGINT NOT NULL,
                entry \(blob) NOT NULL,
                PRIMARY KEY (event_id, author, seq))
            """,
            """
            CREATE TABLE mesh_devices (
                event_id TEXT NOT NULL REFERENCES events(id),
                device_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                held BIGINT NOT NULL CHECK (held >= 0),
                peers TEXT NOT NULL,
                reported_at BIGINT NOT NULL,
                PRIMARY KEY (event_id, device_id))
            """,
        ]
    }

    /// The venue mesh: each tenant's certificate authority (its P-256 key and self-signed
    /// certificate, DER) and the certificates it issued, one per event, user and device; a
    /// revoked one keeps its row with the time (peers learn it as the authority's signed
    /// revocation).
    static let v29 = Migration(version: 29, name: "venue mesh certificates") { dialect in
        let blob = dialect == .postgres ? "BYTEA" : "BLOB"
        return [
            """
            CREATE TABLE mesh_authorities (
                tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
                private_key \(blob) NOT NULL,
                certificate \(blob) NOT NULL,
                created_at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE mesh_certificates (
                serial TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                event_id TEXT NOT NULL REFERENCES events(id),
                user_id TEXT NOT NULL REFERENCES users(id),
                device TEXT NOT NULL,
                public_key \(blob) NOT NULL,
                certificate \(blob) NOT NULL,
                not_after BIGINT NOT NULL,
                issued_at BIGINT NOT NULL,
                revoked_at BIGINT)
            """,
            "CREATE INDEX mesh_certificates_device ON mesh_certificates (event_id, user_id, device)",
            "CREATE INDEX mesh_certificates_user ON mesh_certificates (user_id, revoked_at)",
        ]
    }

    /// The organisation's record of changes to its users' accounts, append-only like the audit
    /// log, except that an account's erasure (GDPR Art. 17) takes the changes to it along: a row
    /// goes only once its user's row has gone. Users are named by id, without a foreign key, so
    /// an erased actor's id stays on what they did.
    static let v28 = Migration(version: 28, name: "user changes") { dialect in
        var statements = [
            """
            CREATE TABLE user_changes (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                seq BIGINT NOT NULL,
                at BIGINT NOT NULL,
                kind TEXT NOT NULL,
                user_id TEXT NOT NULL,
                by_id TEXT NOT NULL,
                detail TEXT)
            """,
            "CREATE INDEX user_changes_tenant ON user_changes (tenant_id, seq)",
        ]
        switch dialect {
        case .sqlite:
            statements += [
                """
                CREATE TRIGGER user_changes_no_update BEFORE UPDATE ON user_changes
                BEGIN SELECT RAISE(ABORT, 'the user changes are append-only'); END
                """,
                """
                CREATE TRIGGER user_changes_no_delete BEFORE DELETE ON user_changes
                WHEN EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id)
                BEGIN SELECT RAISE(ABORT, 'the user changes are append-only'); END
                """,
            ]
        case .postgres:
            statements += [
                """
                CREATE FUNCTION user_changes_append_only() RETURNS trigger AS $$
                BEGIN
                    IF TG_OP = 'UPDATE' OR EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id) THEN
                        RAISE EXCEPTION 'the user changes are append-only';
                    END IF;
                    RETURN OLD;
                END $$ LANGUAGE plpgsql
                """,
                """
                CREATE TRIGGER user_changes_append_only BEFORE UPDATE OR DELETE ON user_changes
                FOR EACH ROW EXECUTE FUNCTION user_changes_append_only()
                """,
            ]
        }
        return statements
    }

    /// Guest fields an event defines ("T-shirt size": text, a choice, a checkbox), in order; a
    /// removed one keeps its row (its kind never changes, so old values stay readable), and each
    /// guest's values as a JSON object by field id.
    static let v27 = Migration(version: 27, name: "guest fields") { _ in
        [
            """
            CREATE TABLE guest_fields (
                id TEXT PRIMARY KEY,
                event_id TEXT NOT NULL REFERENCES events(id),
                position INTEGER NOT NULL,
                label TEXT NOT NULL,
                kind TEXT NOT NULL,
                choices TEXT NOT NULL,
                removed_at BIGINT)
            """,
            "CREATE INDEX guest_fields_event ON guest_fields (event_id, position)",
            "ALTER TABLE guests ADD COLUMN fields TEXT",
        ]
    }

    /// A user's role on one event's staff: null is their own role; `organizer` makes them that
    /// event's organizer (its guests, access types, check-in desk, dashboard and settings) and
    /// no other's.
    static let v26 = Migration(version: 26, name: "per-event roles") { _ in
        ["ALTER TABLE event_staff ADD COLUMN role TEXT"]
    }

    /// A password link an organizer had mailed to a user (its token's SHA-256 only; used once,
    /// before it expires; a newer link ends the older ones), the names organizers give their
    /// tenant's devices ("Door 2"), shown wherever a device id was, and the guest list in e-mail
    /// order.
    static let v25 = Migration(version: 25, name: "password links, device names") { _ in
        [
            """
            CREATE TABLE password_links (
                token_hash TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                created_by TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT)
            """,
            "CREATE INDEX password_links_user ON password_links (user_id)",
            // The guest list by e-mail (the console's column sort), a page at a time.
            "CREATE INDEX guests_by_email ON guests (event_id, lower(email), id)",
            """
            CREATE TABLE device_names (
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                device_id TEXT NOT NULL,
                name TEXT NOT NULL,
                named_at BIGINT NOT NULL,
                PRIMARY KEY (tenant_id, device_id))
            """,
        ]
    }

    /// Two-factor sign-in: a user's TOTP secret, sealed (enrolling while `confirmed_at` is
    /// null), the last step a code was accepted for, the recovery codes' hashes; and the tenant's
    /// requirement of it for organizers.
    static let v24 = Migration(version: 24, name: "two-factor sign-in") { dialect in
        let blob = dialect == .postgres ? "BYTEA" : "BLOB"
        return [
            """
            CREATE TABLE two_factor (
                user_id TEXT PRIMARY KEY REFERENCES users(id),
                secret \(blob) NOT NULL,
                confirmed_at BIGINT,
                last_step BIGINT NOT NULL,
                created_at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE recovery_codes (
                user_id TEXT NOT NULL REFERENCES users(id),
                code_hash TEXT NOT NULL,
                used_at BIGINT,
                PRIMARY KEY (user_id, code_hash))
            """,
            "ALTER TABLE tenant_settings ADD COLUMN organizers_need_two_factor INTEGER NOT NULL DEFAULT 0",
        ]
    }

    /// The time zone a tenant's new events start in (none: the console offers the browser's).
    static let v23 = Migration(version: 23, name: "tenant time zone") { _ in
        ["ALTER TABLE tenant_settings ADD COLUMN time_zone TEXT"]
    }

    /// Check-ins taken back (the console's check-in desk): the check-in moves here whole, with
    /// who took it back, when and why, so the guest can be checked in again under the one check-in
    /// per (event, guest) rule and nothing of the first is lost. Its history rows
    /// (`checkin_events`) keep its id, which is now this table's: PostgreSQL's reference from them
    /// to `checkins` goes (SQLite's was never enforced).
    static let v22 = Migration(version: 22, name: "check-ins undone") { dialect in
        var statements = [
            """
            CREATE TABLE checkins_undone (
                id TEXT PRIMARY KEY,
                event_id TEXT NOT NULL REFERENCES events(id),
                guest_id TEXT NOT NULL,
                at BIGINT NOT NULL,
                client_at BIGINT NOT NULL,
                device_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                by_name TEXT NOT NULL,
                method TEXT NOT NULL,
                note TEXT NOT NULL,
                undone_at BIGINT NOT NULL,
                undone_by TEXT NOT NULL,
                undone_by_name TEXT NOT NULL,
                reason TEXT NOT NULL)
            """,
            "CREATE INDEX checkins_undone_guest ON checkins_undone (event_id, guest_id)",
        ]
        if dialect == .postgres {
            statements.append("ALTER TABLE checkin_events DROP CONSTRAINT IF EXISTS checkin_events_checkin_id_fkey")
        }
        return statements
    }

    /// EFx stations: the station the organizer chose for a user at an event (a zone station at a
    /// zone, counting one way or both, or a pickup station); their device's EFx tab opens it.
    static let v21 = Migration(version: 21, name: "station assignments") { _ in
        [
            """
            CREATE TABLE station_assignments (
                event_id TEXT NOT NULL REFERENCES events(id),
                user_id TEXT NOT NULL REFERENCES users(id),
                kind TEXT NOT NULL,
                zone_id TEXT REFERENCES zones(id),
                direction TEXT,
                PRIMARY KEY (event_id, user_id))
            """
        ]
    }

    /// Ticket blocks (EF-069): blocks of an event's tickets allocated to partners, the block
    /// managers who name them, and every naming of a block's ticket (a partner's, the
    /// organizer's, the door's), a door naming that found the ticket named already flagged. A
    /// block's tickets are guests with its id (unnamed: an empty name and e-mail).
    static let v20 = Migration(version: 20, name: "ticket blocks") { _ in
        [
            """
            CREATE TABLE ticket_blocks (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                event_id TEXT NOT NULL REFERENCES events(id),
                kind TEXT NOT NULL,
                partner TEXT NOT NULL,
                access_type_id TEXT NOT NULL REFERENCES access_types(id),
                naming_deadline BIGINT NOT NULL,
                door_naming INTEGER NOT NULL,
                created_at BIGINT NOT NULL,
                position BIGINT NOT NULL)
            """,
            "CREATE INDEX ticket_blocks_event ON ticket_blocks (event_id, position)",
            """
            CREATE TABLE ticket_block_managers (
                block_id TEXT NOT NULL REFERENCES ticket_blocks(id),
                user_id TEXT NOT NULL REFERENCES users(id),
                PRIMARY KEY (block_id, user_id))
            """,
            "CREATE INDEX ticket_block_managers_user ON ticket_block_managers (user_id)",
            "ALTER TABLE guests ADD COLUMN block_id TEXT REFERENCES ticket_blocks(id)",
            // A ticket's place in its block (1, 2, …), so the manager's list keeps its order.
            "ALTER TABLE guests ADD COLUMN block_slot BIGINT",
            "CREATE INDEX guests_block ON guests (block_id, block_slot) WHERE block_id IS NOT NULL",
            """
            CREATE TABLE block_ticket_namings (
                guest_id TEXT NOT NULL REFERENCES guests(id),
                version BIGINT NOT NULL,
                name TEXT NOT NULL,
                email TEXT NOT NULL,
                named_by TEXT NOT NULL,
                source TEXT NOT NULL,
                device_id TEXT,
                conflict INTEGER NOT NULL,
                at BIGINT NOT NULL,
                PRIMARY KEY (guest_id, version))
            """,
        ]
    }

    /// Lead retrieval (EFx): an event's booths (their questions as JSON), the exhibitor users on
    /// each, guests' consent to share contact details with exhibitors, the leads booths captured
    /// (the current version) and every version of each (a correction keeps the original).
    static let v19 = Migration(version: 19, name: "booths and leads") { _ in
        [
            """
            CREATE TABLE booths (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                event_id TEXT NOT NULL REFERENCES events(id),
                name TEXT NOT NULL,
                questions TEXT NOT NULL,
                position BIGINT NOT NULL)
            """,
            "CREATE INDEX booths_event ON booths (event_id, position)",
            """
            CREATE TABLE booth_exhibitors (
                booth_id TEXT NOT NULL REFERENCES booths(id),
                user_id TEXT NOT NULL REFERENCES users(id),
                PRIMARY KEY (booth_id, user_id))
            """,
            "CREATE INDEX booth_exhibitors_user ON booth_exhibitors (user_id)",
            """
            CREATE TABLE guest_contact_consent (
                guest_id TEXT PRIMARY KEY REFERENCES guests(id),
                shares INTEGER NOT NULL,
                changed_at BIGINT NOT NULL,
                changed_by TEXT NOT NULL)
            """,
            """
            CREATE TABLE leads (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                booth_id TEXT NOT NULL REFERENCES booths(id),
                guest_id TEXT NOT NULL REFERENCES guests(id),
                version BIGINT NOT NULL,
                content TEXT NOT NULL,
                captured_by TEXT NOT NULL,
                updated_at BIGINT NOT NULL,
                captured_at BIGINT NOT NULL)
            """,
            "CREATE INDEX leads_booth ON leads (booth_id, captured_at)",
            """
            CREATE TABLE lead_versions (
                lead_id TEXT NOT NULL REFERENCES leads(id),
                version BIGINT NOT NULL,
                content TEXT NOT NULL,
                user_id TEXT NOT NULL,
                at BIGINT NOT NULL,
                PRIMARY KEY (lead_id, version))
            """,
        ]
    }

    /// Product pickup (EFx): an event's items with their stock, what each access type may
    /// collect, what was imported for single guests, and every handing-out a pickup station
    /// recorded (under its device's id) with its lines, each with how many of it went beyond the
    /// ticket's entitlement (kept and counted in the stock, never dropped).
    static let v18 = Migration(version: 18, name: "product pickup") { _ in
        [
            """
            CREATE TABLE pickup_items (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                event_id TEXT NOT NULL REFERENCES events(id),
                name TEXT NOT NULL,
                stock BIGINT,
                position BIGINT NOT NULL)
            """,
            "CREATE INDEX pickup_items_event ON pickup_items (event_id, position)",
            """
            CREATE TABLE pickup_allowances (
                item_id TEXT NOT NULL REFERENCES pickup_items(id),
                access_type_id TEXT NOT NULL REFERENCES access_types(id),
                quantity BIGINT NOT NULL,
                PRIMARY KEY (item_id, access_type_id))
            """,
            """
            CREATE TABLE pickup_entitlements (
                item_id TEXT NOT NULL REFERENCES pickup_items(id),
                guest_id TEXT NOT NULL REFERENCES guests(id),
                event_id TEXT NOT NULL REFERENCES events(id),
                quantity BIGINT NOT NULL,
                PRIMARY KEY (item_id, guest_id))
            """,
            "CREATE INDEX pickup_entitlements_event ON pickup_entitlements (event_id)",
            """
            CREATE TABLE pickup_redemptions (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                event_id TEXT NOT NULL REFERENCES events(id),
                guest_id TEXT NOT NULL REFERENCES guests(id),
                device_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                by_name TEXT NOT NULL,
                scanned_at BIGINT NOT NULL,
                at BIGINT NOT NULL,
                flagged INTEGER NOT NULL)
            """,
            "CREATE INDEX pickup_redemptions_event ON pickup_redemptions (event_id, at)",
            """
            CREATE TABLE pickup_lines (
                redemption_id TEXT NOT NULL REFERENCES pickup_redemptions(id),
                item_id TEXT NOT NULL REFERENCES pickup_items(id),
                guest_id TEXT NOT NULL,
                quantity BIGINT NOT NULL,
                over BIGINT NOT NULL,
                position BIGINT NOT NULL,
                PRIMARY KEY (redemption_id, item_id))
            """,
            "CREATE INDEX pickup_lines_guest ON pickup_lines (guest_id, item_id)",
        ]
    }

    /// Zone access control (EFx): an event's zones, each access type's access to each (windows
    /// as JSON instants, re-entry), and the entries and exits zone stations recorded, each under
    /// its device's id, with the violation the server found (kept and counted, never dropped).
    static let v17 = Migration(version: 17, name: "zones and their passages") { _ in
        [
            """
            CREATE TABLE zones (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                event_id TEXT NOT NULL REFERENCES events(id),
                name TEXT NOT NULL,
                capacity BIGINT,
                position BIGINT NOT NULL)
            """,
            "CREATE INDEX zones_event ON zones (event_id, position)",
            """
            CREATE TABLE zone_access (
                zone_id TEXT NOT NULL REFERENCES zones(id),
                access_type_id TEXT NOT NULL REFERENCES access_types(id),
                windows TEXT NOT NULL,
                re_entry INTEGER NOT NULL,
                position BIGINT NOT NULL,
                PRIMARY KEY (zone_id, access_type_id))
            """,
            """
            CREATE TABLE zone_passages (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                event_id TEXT NOT NULL REFERENCES events(id),
                zone_id TEXT NOT NULL REFERENCES zones(id),
                guest_id TEXT NOT NULL REFERENCES guests(id),
                movement TEXT NOT NULL,
                device_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                by_name TEXT NOT NULL,
                scanned_at BIGINT NOT NULL,
                at BIGINT NOT NULL,
                violation TEXT)
            """,
            "CREATE INDEX zone_passages_guest ON zone_passages (zone_id, guest_id, scanned_at)",
            "CREATE INDEX zone_passages_event ON zone_passages (event_id, at)",
        ]
    }

    /// Single sign-on (OpenID Connect): each tenant's provider (its client secret sealed by the
    /// key-encryption keys, the endpoints read from its discovery document at save), the e-mail
    /// domains it signs in (each domain one tenant's), the identities it linked to users (by
    /// issuer and subject, OIDC Core §5.7), the browser sign-ins under way (one row per `state`,
    /// deleted at the callback) and the one-time codes the app redeems.
    static let v16 = Migration(version: 16, name: "single sign-on") { dialect in
        let blob = dialect == .postgres ? "BYTEA" : "BLOB"
        return [
            """
            CREATE TABLE sso_providers (
                tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
                display_name TEXT NOT NULL,
                issuer TEXT NOT NULL,
                client_id TEXT NOT NULL,
                secret_kek_id TEXT NOT NULL,
                sealed_secret \(blob) NOT NULL,
                authorization_endpoint TEXT NOT NULL,
                token_endpoint TEXT NOT NULL,
                jwks_uri TEXT NOT NULL,
                new_users TEXT NOT NULL,
                password_sign_in INTEGER NOT NULL,
                updated_at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE sso_domains (
                domain TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL REFERENCES tenants(id))
            """,
            """
            CREATE TABLE sso_identities (
                issuer TEXT NOT NULL,
                subject TEXT NOT NULL,
                tenant_id TEXT NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id),
                linked_at BIGINT NOT NULL,
                PRIMARY KEY (issuer, subject))
            """,
            """
            CREATE TABLE sso_attempts (
                state TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                nonce TEXT NOT NULL,
                provider_verifier TEXT NOT NULL,
                callback TEXT NOT NULL,
                app_challenge TEXT NOT NULL,
                app_redirect TEXT NOT NULL,
                app_state TEXT,
                expires_at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE sso_codes (
                code_hash TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                app_challenge TEXT NOT NULL,
                expires_at BIGINT NOT NULL)
            """,
        ]
    }

    /// Badges (seed 000's Print tab): an event's badge layout (JSON of ``BadgeLayout``; none is
    /// the standard one), and every badge a device printed, once per print id, a reprint with
    /// its reason.
    static let v15 = Migration(version: 15, name: "badge layouts and prints") { _ in
        [
            """
            CREATE TABLE badge_layouts (
                event_id TEXT PRIMARY KEY REFERENCES events(id),
                tenant_id TEXT NOT NULL,
                layout TEXT NOT NULL,
                updated_at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE badge_prints (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                event_id TEXT NOT NULL REFERENCES events(id),
                guest_id TEXT NOT NULL,
                reprint INTEGER NOT NULL,
                reason TEXT,
                device_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                by_name TEXT NOT NULL,
                printed_at BIGINT NOT NULL,
                at BIGINT NOT NULL)
            """,
            "CREATE INDEX badge_prints_event ON badge_prints (event_id, at)",
        ]
    }

    /// Notes at the door (seed 000's Notes tab): append-only revisions on a guest or on the event,
    /// each under the id its device made; the event's own counter orders the notes feed by commit.
    static let v14 = Migration(version: 14, name: "notes at the door") { _ in
        [
            "ALTER TABLE events ADD COLUMN note_seq BIGINT NOT NULL DEFAULT 0",
            """
            CREATE TABLE notes (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                event_id TEXT NOT NULL REFERENCES events(id),
                note_id TEXT NOT NULL,
                guest_id TEXT,
                replaces TEXT NOT NULL,
                body TEXT NOT NULL,
                device_id TEXT NOT NULL,
                author_id TEXT NOT NULL,
                author_name TEXT NOT NULL,
                written_at BIGINT NOT NULL,
                at BIGINT NOT NULL,
                seq BIGINT NOT NULL)
            """,
            "CREATE INDEX notes_feed ON notes (event_id, seq)",
        ]
    }

    /// Walk-ins (seed 000's Walk-Ins tab): an access type may cap its walk-ins; devices admit
    /// offline only from places leased to them (`walkin_leases`, escrow: `walk_in_reserved`
    /// counts open leases whole and sealed ones as used, and only a conditional update raises
    /// it); each walk-in is a guest and a check-in, and a row here with who added them, what
    /// they paid and what the organizer should look at.
    static let v13 = Migration(version: 13, name: "walk-ins and their leased places") { _ in
        [
            "ALTER TABLE access_types ADD COLUMN walk_in_capacity BIGINT",
            "ALTER TABLE access_types ADD COLUMN walk_in_reserved BIGINT NOT NULL DEFAULT 0",
            """
            CREATE TABLE walkin_leases (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                event_id TEXT NOT NULL REFERENCES events(id),
                access_type_id TEXT NOT NULL REFERENCES access_types(id),
                device_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                granted BIGINT NOT NULL CHECK (granted > 0),
                used BIGINT CHECK (used >= 0 AND used <= granted),
                granted_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                sealed_at BIGINT)
            """,
            "CREATE INDEX walkin_leases_type ON walkin_leases (access_type_id, sealed_at)",
            """
            CREATE TABLE walkins (
                guest_id TEXT PRIMARY KEY REFERENCES guests(id),
                tenant_id TEXT NOT NULL,
                event_id TEXT NOT NULL REFERENCES events(id),
                access_type_id TEXT NOT NULL REFERENCES access_types(id),
                lease_id TEXT,
                slot BIGINT,
                device_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                by_name TEXT NOT NULL,
                amount_minor BIGINT,
                currency TEXT,
                payment_method TEXT,
                added_at BIGINT NOT NULL,
                at BIGINT NOT NULL,
                duplicate_of TEXT,
                over_capacity INTEGER NOT NULL)
            """,
            "CREATE INDEX walkins_event ON walkins (event_id, at)",
            "CREATE INDEX walkins_lease ON walkins (lease_id, slot)",
        ]
    }

    /// What each device of a user last said it had not sent (mentors' and workers' devices,
    /// which belong to no event): an organizer sees it before removing the user.
    static let v12 = Migration(version: 12, name: "devices' unsent entries per user") { _ in
        [
            """
            CREATE TABLE user_device_reports (
                user_id TEXT NOT NULL REFERENCES users(id),
                device_id TEXT NOT NULL,
                pending INTEGER NOT NULL CHECK (pending >= 0),
                reported_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, device_id))
            """
        ]
    }

    /// Contacts' data rights (seed 004): an erased contact keeps its row (its activities name
    /// it) without its personal data; every edit and erasure is a row of who, which fields and
    /// when; activities are read by day for filters and pages.
    static let v11 = Migration(version: 11, name: "contact edits and erasure, activity pages") { dialect in
        let serial = dialect == .postgres ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT"
        return [
            "ALTER TABLE contacts ADD COLUMN erased_at BIGINT",
            """
            CREATE TABLE contact_changes (
                id \(serial),
                tenant_id TEXT NOT NULL,
                contact_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                action TEXT NOT NULL CHECK (action IN ('edited', 'erased')),
                fields TEXT NOT NULL,
                activities BIGINT,
                at BIGINT NOT NULL)
            """,
            "CREATE INDEX contact_changes_tenant ON contact_changes (tenant_id, id)",
            "CREATE INDEX activities_by_day ON activities (tenant_id, on_date, id)",
        ]
    }

    /// A submitted day keeps its minutes as tracked beside the corrected ones, and the sessions
    /// the worker deleted (seed 003's corrections; each session's corrections are in `sessions`).
    static let v10 = Migration(version: 10, name: "day submissions keep their corrections") { _ in
        [
            "ALTER TABLE day_submissions ADD COLUMN as_tracked_minutes BIGINT",
            "ALTER TABLE day_submissions ADD COLUMN deleted_sessions TEXT",
        ]
    }

    /// The durable mail queue (``MailQueue``): every mail the server sends waits here, rendered,
    /// until the relay takes it; `next_attempt_at` is when it is due (a claim pushes it past the
    /// send, so a server killed mid-send leaves it due again). A queued row with an empty
    /// `message` is a sign-in code asked for, which the sender makes into a mail (or drops, for
    /// an e-mail no account has). `message` is emptied once the mail is settled, so a code is
    /// not kept after it went. A ticket mail names its queued mail.
    static let v9 = Migration(version: 9, name: "durable mail queue") { dialect in
        let serial = dialect == .postgres ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT"
        return [
            """
            CREATE TABLE mail_queue (
                id \(serial),
                purpose TEXT NOT NULL,
                mail_from TEXT NOT NULL,
                rcpt_to TEXT NOT NULL,
                message TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'failed', 'expired', 'dropped')),
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at BIGINT NOT NULL,
                expires_at BIGINT,
                last_error TEXT,
                created_at BIGINT NOT NULL,
                settled_at BIGINT)
            """,
            "CREATE INDEX mail_queue_due ON mail_queue (state, next_attempt_at)",
            "ALTER TABLE ticket_mails ADD COLUMN mail_id BIGINT",
        ]
    }

    /// The guest list searches and sorts by the folded name (``GuestNameKey``), filled by
    /// ``Store/fillGuestNameKeys()`` for rows from before.
    static let v8 = Migration(version: 8, name: "guest names folded for search and order") { _ in
        [
            "ALTER TABLE guests ADD COLUMN name_key TEXT",
            "CREATE INDEX guests_by_name_key ON guests (event_id, name_key, id)",
        ]
    }

    /// Ended sign-ins are read by when they ended, every second on every instance
    /// (``RevokedSessions``).
    static let v7 = Migration(version: 7, name: "revoked sign-ins by time") { _ in
        ["CREATE INDEX refresh_tokens_revoked ON refresh_tokens (revoked_at)"]
    }

    /// An import looks up a chunk's e-mails case-insensitively; the organizer's list of refused
    /// attempts reads a tenant's rows that belong to no visible event (`seq` 0).
    static let v2 = Migration(version: 2, name: "guest e-mail lookup, refused attempts") { _ in
        [
            "CREATE INDEX guests_email_folded ON guests (event_id, lower(email))",
            "CREATE INDEX audit_log_refused ON audit_log (tenant_id, id) WHERE seq = 0",
        ]
    }

    /// Peer mentors (seed 004): tenant settings (the offline unlock window), each tenant's data
    /// key wrapped by a key-encryption key, contacts whose sensitive fields are one AES-GCM box
    /// under that data key, mentors' assignments, activities with versions, and the audit of
    /// every reveal of sensitive fields.
    static let v3 = Migration(version: 3, name: "peer mentors: contacts, activities, tenant settings") { dialect in
        let blob = dialect == .postgres ? "BYTEA" : "BLOB"
        let serial = dialect == .postgres ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT"
        return [
            """
            CREATE TABLE tenant_settings (
                tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
                offline_unlock_hours INTEGER NOT NULL)
            """,
            """
            CREATE TABLE tenant_data_keys (
                tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
                kek_id TEXT NOT NULL,
                wrapped \(blob) NOT NULL,
                created_at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE contacts (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                name TEXT NOT NULL,
                area TEXT NOT NULL,
                sensitive \(blob) NOT NULL,
                sensitive_fields TEXT NOT NULL,
                updated_at BIGINT NOT NULL,
                created_at BIGINT NOT NULL)
            """,
            "CREATE INDEX contacts_tenant ON contacts (tenant_id, name)",
            """
            CREATE TABLE contact_mentors (
                contact_id TEXT NOT NULL REFERENCES contacts(id),
                user_id TEXT NOT NULL REFERENCES users(id),
                PRIMARY KEY (contact_id, user_id))
            """,
            "CREATE INDEX contact_mentors_user ON contact_mentors (user_id)",
            """
            CREATE TABLE activities (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                contact_id TEXT NOT NULL REFERENCES contacts(id),
                mentor_id TEXT NOT NULL REFERENCES users(id),
                kind TEXT NOT NULL,
                on_date TEXT NOT NULL,
                duration_minutes INTEGER NOT NULL,
                notes TEXT NOT NULL,
                version BIGINT NOT NULL CHECK (version >= 1),
                deleted INTEGER NOT NULL,
                updated_at BIGINT NOT NULL,
                updated_by TEXT NOT NULL,
                created_at BIGINT NOT NULL)
            """,
            "CREATE INDEX activities_mentor ON activities (tenant_id, mentor_id, on_date)",
            "CREATE INDEX activities_contact ON activities (contact_id, on_date)",
            """
            CREATE TABLE contact_reveals (
                id \(serial),
                tenant_id TEXT NOT NULL,
                contact_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                at BIGINT NOT NULL)
            """,
            "CREATE INDEX contact_reveals_contact ON contact_reveals (contact_id, id)",
            // A removed user keeps their row (check-ins, activities and the audit name them) but
            // can no longer sign in or refresh.
            "ALTER TABLE users ADD COLUMN removed_at BIGINT",
            "CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id)",
            // Passwordless sign-in (seed 003): six-digit codes, stored as an HMAC under a server
            // secret (a leaked table does not give the codes away), single use, ten minutes.
            """
            CREATE TABLE email_codes (
                id \(serial),
                email TEXT NOT NULL,
                code_hash \(blob) NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT,
                attempts INTEGER NOT NULL DEFAULT 0)
            """,
            "CREATE INDEX email_codes_email ON email_codes (email, id)",
            "ALTER TABLE users ADD COLUMN consent_version TEXT",
            "ALTER TABLE users ADD COLUMN consent_at BIGINT",
        ]
    }

    /// The organizer console's guest list: by name, then id, a page at a time (keyset paging,
    /// as fast on the thousandth page as on the first).
    static let v5 = Migration(version: 5, name: "guest list by name") { _ in
        ["CREATE INDEX guests_by_name ON guests (event_id, name, id)"]
    }

    /// The door dashboard: what each device said of itself at its last sync (check-ins it still
    /// holds), check-ins by time (the per-minute chart, the last 20); and the ticket mail sent to
    /// each guest, with its delivery status (sent, or failed and why) for a resend.
    static let v6 = Migration(version: 6, name: "door dashboard, ticket mail") { _ in
        [
            """
            CREATE TABLE device_reports (
                event_id TEXT NOT NULL REFERENCES events(id),
                device_id TEXT NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id),
                pending INTEGER NOT NULL CHECK (pending >= 0),
                reported_at BIGINT NOT NULL,
                PRIMARY KEY (event_id, device_id))
            """,
            "CREATE INDEX checkins_by_time ON checkins (event_id, at)",
            """
            CREATE TABLE ticket_mails (
                event_id TEXT NOT NULL REFERENCES events(id),
                guest_id TEXT NOT NULL REFERENCES guests(id),
                email TEXT NOT NULL,
                status TEXT NOT NULL,
                attempts INTEGER NOT NULL,
                error TEXT,
                updated_at BIGINT NOT NULL,
                PRIMARY KEY (event_id, guest_id))
            """,
        ]
    }

    /// Time tracking (seed 003): the days a worker submitted (one per worker and day, the
    /// submission the device made kept whole) and the weeks an employer finalised.
    static let v4 = Migration(version: 4, name: "time tracking: day submissions, finalised weeks") { _ in
        [
            """
            CREATE TABLE day_submissions (
                user_id TEXT NOT NULL REFERENCES users(id),
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                on_date TEXT NOT NULL,
                week TEXT NOT NULL,
                submission_id TEXT NOT NULL,
                time_zone TEXT NOT NULL,
                sessions TEXT NOT NULL,
                tracked_minutes INTEGER NOT NULL CHECK (tracked_minutes >= 0),
                confirmed_at BIGINT NOT NULL,
                submitted_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, on_date))
            """,
            """
            CREATE TABLE finalised_weeks (
                user_id TEXT NOT NULL REFERENCES users(id),
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                week TEXT NOT NULL,
                finalised_by TEXT NOT NULL,
                finalised_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, week))
            """,
        ]
    }

    static let v1 = Migration(version: 1, name: "initial schema") { dialect in
        let blob = dialect == .postgres ? "BYTEA" : "BLOB"
        let serial = dialect == .postgres ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT"
        var statements = [
            """
            CREATE TABLE tenants (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                created_at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE users (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                email TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                role TEXT NOT NULL,
                password_hash TEXT NOT NULL,
                created_at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE refresh_tokens (
                token_hash \(blob) PRIMARY KEY,
                family_id TEXT NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id),
                device_id TEXT NOT NULL,
                issued_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                rotated_at BIGINT,
                successor_sealed \(blob),
                revoked_at BIGINT)
            """,
            "CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id)",
            """
            CREATE TABLE signin_failures (
                id \(serial),
                subject TEXT NOT NULL,
                at BIGINT NOT NULL)
            """,
            "CREATE INDEX signin_failures_subject ON signin_failures (subject, at)",
            """
            CREATE TABLE server_secrets (
                name TEXT PRIMARY KEY,
                value \(blob) NOT NULL)
            """,
            """
            CREATE TABLE events (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                name TEXT NOT NULL,
                starts_at BIGINT NOT NULL,
                ends_at BIGINT NOT NULL,
                time_zone TEXT NOT NULL,
                modules TEXT NOT NULL,
                seq BIGINT NOT NULL DEFAULT 0,
                kiosk_passcode_hash TEXT,
                kiosk_orientation TEXT,
                created_at BIGINT NOT NULL)
            """,
            "CREATE INDEX events_tenant ON events (tenant_id, starts_at)",
            """
            CREATE TABLE event_staff (
                event_id TEXT NOT NULL REFERENCES events(id),
                user_id TEXT NOT NULL REFERENCES users(id),
                PRIMARY KEY (event_id, user_id))
            """,
            """
            CREATE TABLE access_types (
                id TEXT PRIMARY KEY,
                event_id TEXT NOT NULL REFERENCES events(id),
                name TEXT NOT NULL,
                walk_in_allowed INTEGER NOT NULL,
                created_at BIGINT NOT NULL)
            """,
            "CREATE INDEX access_types_event ON access_types (event_id)",
            """
            CREATE TABLE guests (
                id TEXT PRIMARY KEY,
                event_id TEXT NOT NULL REFERENCES events(id),
                access_type_id TEXT NOT NULL REFERENCES access_types(id),
                name TEXT NOT NULL,
                email TEXT NOT NULL,
                code TEXT NOT NULL,
                status TEXT NOT NULL,
                notes TEXT NOT NULL,
                seq BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                UNIQUE (event_id, code))
            """,
            "CREATE INDEX guests_changes ON guests (event_id, seq, id)",
            "CREATE INDEX guests_email ON guests (event_id, email)",
            """
            CREATE TABLE event_keys (
                event_id TEXT NOT NULL REFERENCES events(id),
                key_id BIGINT NOT NULL,
                public_key \(blob) NOT NULL,
                private_key \(blob) NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT,
                PRIMARY KEY (event_id, key_id))
            """,
            """
            CREATE TABLE checkins (
                id TEXT PRIMARY KEY,
                event_id TEXT NOT NULL REFERENCES events(id),
                guest_id TEXT NOT NULL REFERENCES guests(id),
                at BIGINT NOT NULL,
                client_at BIGINT NOT NULL,
                device_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                by_name TEXT NOT NULL,
                method TEXT NOT NULL,
                note TEXT NOT NULL,
                UNIQUE (event_id, guest_id))
            """,
            """
            CREATE TABLE checkin_events (
                id TEXT PRIMARY KEY,
                checkin_id TEXT NOT NULL REFERENCES checkins(id),
                event_id TEXT NOT NULL,
                guest_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                at BIGINT NOT NULL,
                client_at BIGINT NOT NULL,
                device_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                method TEXT NOT NULL,
                note TEXT)
            """,
            "CREATE INDEX checkin_events_guest ON checkin_events (event_id, guest_id)",
            """
            CREATE TABLE idempotency_keys (
                tenant_id TEXT NOT NULL,
                key TEXT NOT NULL,
                request_hash \(blob) NOT NULL,
                status INTEGER,
                body \(blob),
                created_at BIGINT NOT NULL,
                PRIMARY KEY (tenant_id, key))
            """,
            "CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at)",
            """
            CREATE TABLE audit_log (
                id \(serial),
                tenant_id TEXT NOT NULL,
                event_id TEXT NOT NULL,
                seq BIGINT NOT NULL,
                kind TEXT NOT NULL,
                guest_id TEXT,
                device_id TEXT,
                user_id TEXT,
                at BIGINT NOT NULL,
                client_at BIGINT,
                method TEXT)
            """,
            "CREATE INDEX audit_log_event ON audit_log (event_id, seq, id)",
        ]
        switch dialect {
        case .sqlite:
            statements += [
                """
                CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
                BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END
                """,
                """
                CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
                BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END
                """,
            ]
        case .postgres:
            statements += [
                """
                CREATE FUNCTION audit_log_append_only() RETURNS trigger AS $$
                BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$ LANGUAGE plpgsql
                """,
                """
                CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
                FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()
                """,
            ]
        }
        return statements
    }
}
