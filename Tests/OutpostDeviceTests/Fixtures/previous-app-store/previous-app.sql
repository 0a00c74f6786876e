-- The previous app's on-device store (seed 003's schema), as a phone that used it for a week in
-- November 2026 would hold it, with the inconsistencies field bugs left behind. previous-app.sqlite
-- is made from this file:  python3 -c 'import sqlite3,sys; sqlite3.connect(sys.argv[1]).executescript(open(sys.argv[2]).read())' previous-app.sqlite previous-app.sql
CREATE TABLE locations (
  id TEXT PRIMARY KEY,
  name TEXT,
  latitude REAL,
  longitude REAL,
  radius INTEGER DEFAULT 100
);
CREATE TABLE tracking_sessions (
  id TEXT PRIMARY KEY,
  location_id TEXT,
  clock_in TEXT,
  clock_out TEXT,
  duration_minutes INTEGER,
  tracking_method TEXT,
  state TEXT DEFAULT 'active',
  pending_exit_at TEXT,
  exit_accuracy REAL,
  checkin_accuracy REAL,
  created_at TEXT,
  updated_at TEXT
);
CREATE TABLE day_confirmations (date TEXT PRIMARY KEY, confirmed_at TEXT);
INSERT INTO locations VALUES ('loc-nord', 'Care home Nord', 52.52, 13.405, 100);
INSERT INTO locations VALUES ('loc-linde', 'Haus Linde', 52.53, 13.41, NULL);
-- 1. Fine.
INSERT INTO tracking_sessions VALUES ('s1', 'loc-nord', '2026-11-09T07:58:12.345Z', '2026-11-09T16:02:40.001Z', 484, 'geofence_auto', 'completed', NULL, 18.5, 12.0, '2026-11-09T07:58:12.345Z', '2026-11-09T16:02:40.001Z');
-- 2. Completed without a clock-out; its duration is known.
INSERT INTO tracking_sessions VALUES ('s2', 'loc-nord', '2026-11-10T08:01:00Z', NULL, 240, 'geofence_auto', 'completed', NULL, NULL, 15.0, NULL, '2026-11-10T12:01:00Z');
-- 3. Completed without a clock-out or duration, but with its pending exit.
INSERT INTO tracking_sessions VALUES ('s3', 'loc-linde', '2026-11-11T08:00:00+01:00', NULL, NULL, 'geofence_auto', 'completed', '2026-11-11T15:30:00+01:00', 65.0, 20.0, NULL, NULL);
-- 4. A clock-out on a session still marked active.
INSERT INTO tracking_sessions VALUES ('s4', 'loc-nord', '2026-11-12T07:55:00Z', '2026-11-12T15:55:00Z', 480, 'geofence_auto', 'active', NULL, 30.0, 14.0, NULL, NULL);
-- 5 and 6. Two open sessions at one location (5 pending without its exit time, then 6).
INSERT INTO tracking_sessions VALUES ('s5', 'loc-linde', '2026-11-13T08:00:00Z', NULL, NULL, 'geofence_auto', 'pending_exit', NULL, NULL, 22.0, NULL, '2026-11-13T16:10:00Z');
INSERT INTO tracking_sessions VALUES ('s6', 'loc-linde', '2026-11-16T08:05:00Z', NULL, NULL, 'geofence_auto', 'active', NULL, NULL, 19.0, NULL, NULL);
-- 7. A clock-out before the clock-in (a clock set back), entered by hand.
INSERT INTO tracking_sessions VALUES ('s7', 'loc-nord', '2026-11-14T10:00:00Z', '2026-11-14T09:00:00Z', -60, 'manual', 'completed', NULL, NULL, NULL, NULL, NULL);
-- 8. An unknown method and state (a newer build's values).
INSERT INTO tracking_sessions VALUES ('s8', 'loc-nord', '2026-11-15T09:00:00Z', '2026-11-15T11:30:00Z', 150, 'auto_v2', 'done', NULL, NULL, NULL, NULL, NULL);
-- 9. No readable start: kept aside, never invented.
INSERT INTO tracking_sessions VALUES ('s9', 'loc-nord', 'yesterday morning', '2026-11-15T12:00:00Z', NULL, 'manual', 'completed', NULL, NULL, NULL, NULL, NULL);
INSERT INTO day_confirmations VALUES ('2026-11-09', '2026-11-09T18:00:00Z');
