# Sourced by scripts/test: a private CUPS scheduler (Debian's cups) on a free loopback port with
# one queue, `badge`, a real cups-pdf printer (printer-driver-cups-pdf) that writes each job as a
# PDF into $cups_dir/out. Between the queue and cups-pdf sits a paper switch: while the file
# $cups_dir/paper says `out`, the backend reports media-empty and stops the queue (exit 4,
# CUPS_BACKEND_STOP, man 7 backend), as a label printer out of labels does; the job stays queued.
# It exports OUTPOST_TEST_CUPS_URL (the queue's IPP address), OUTPOST_TEST_CUPS_OUT and
# OUTPOST_TEST_CUPS_PAPER, and stops and deletes it all when the calling script exits (through
# cups_lab_stop, which the caller's EXIT trap runs). cups-pdf's backend is mode 0700, so cupsd
# runs as root (the recipe: ../shared/research/event-day-modules.md §2); without root the lab is
# skipped and the CUPS test cases say so.
cups_lab_stop() {
    [ -n "${cups_pid:-}" ] && kill "$cups_pid" 2>/dev/null && wait "$cups_pid" 2>/dev/null
    [ -n "${cups_lab_name:-}" ] && rm -f "/etc/cups/cups-pdf-$cups_lab_name.conf"
    [ -n "${cups_dir:-}" ] && rm -rf "$cups_dir"
    return 0
}

cups_lab_start() {
    if [ "$(id -u)" -ne 0 ]; then
        log "CUPS lab skipped: cupsd with cups-pdf needs root; the CUPS test cases skip"
        return 0
    fi
    cups_dir=$(mktemp -d /tmp/outpost-cups.XXXXXX)
    chmod 0755 "$cups_dir"
    # cups-pdf reads its settings from /etc/cups, shared by every lab on the machine: each lab's
    # file (and its queue's cups-pdf:/ name) is its own, so two runs at once do not write into
    # each other's folders or delete each other's settings (seen: a filtered run beside a full
    # one took the full run's PDFs).
    cups_lab_name="outpost-lab-${cups_dir##*.}"
    local cups_port
    cups_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
    mkdir -p "$cups_dir"/{etc,spool/tmp,cache,state,log,serverbin/backend,out}
    chmod 0777 "$cups_dir/out"
    chmod 0710 "$cups_dir/spool"
    for entry in /usr/lib/cups/*; do
        [ "$(basename "$entry")" = backend ] || ln -s "$entry" "$cups_dir/serverbin/"
    done
    for entry in /usr/lib/cups/backend/*; do ln -s "$entry" "$cups_dir/serverbin/backend/"; done
    echo in >"$cups_dir/paper"
    chmod 0666 "$cups_dir/paper"
    # The paper switch in front of cups-pdf (mode 0700: cupsd runs it as root, as cups-pdf needs).
    cat >"$cups_dir/serverbin/backend/outpostpaper" <<BACKEND
#!/bin/sh
[ \$# -eq 0 ] && { echo 'direct outpostpaper "Outpost paper switch" "cups-pdf behind a paper switch"'; exit 0; }
if [ "\$(cat $cups_dir/paper)" = out ]; then
    echo "STATE: +media-empty-error" >&2
    echo "ERROR: out of labels" >&2
    exit 4
fi
echo "STATE: -media-empty-error" >&2
DEVICE_URI=cups-pdf:/$cups_lab_name exec /usr/lib/cups/backend/cups-pdf "\$@"
BACKEND
    chmod 0700 "$cups_dir/serverbin/backend/outpostpaper"
    cat >"$cups_dir/etc/cups-files.conf" <<CONF
ServerRoot $cups_dir/etc
RequestRoot $cups_dir/spool
TempDir $cups_dir/spool/tmp
CacheDir $cups_dir/cache
StateDir $cups_dir/state
ServerBin $cups_dir/serverbin
AccessLog $cups_dir/log/access_log
ErrorLog $cups_dir/log/error_log
PageLog $cups_dir/log/page_log
User lp
Group lp
SystemGroup root
CONF
    cat >"$cups_dir/etc/cupsd.conf" <<CONF
Listen 127.0.0.1:$cups_port
Listen $cups_dir/cupsd.sock
Browsing No
LogLevel info
JobRetryInterval 1
<Location />
  Order allow,deny
  Allow 127.0.0.1
</Location>
<Policy default>
  <Limit All>
    Order deny,allow
  </Limit>
</Policy>
DefaultPolicy default
CONF
    # cups-pdf reads its settings only from /etc/cups: cups-pdf-<name>.conf for cups-pdf:/<name>.
    printf 'Out %s/out\nAnonDirName %s/out\nAnonUMask 0022\nUserUMask 0022\nLabel 0\nTitlePref 1\n' "$cups_dir" "$cups_dir" \
        >"/etc/cups/cups-pdf-$cups_lab_name.conf"
    cupsd -f -c "$cups_dir/etc/cupsd.conf" -s "$cups_dir/etc/cups-files.conf" >"$cups_dir/log/cupsd.out" 2>&1 &
    cups_pid=$!
    local tries=0
    until CUPS_SERVER="127.0.0.1:$cups_port" lpstat -r >/dev/null 2>&1; do
        tries=$((tries + 1))
        if [ "$tries" -gt 100 ]; then
            cat "$cups_dir/log/cupsd.out" "$cups_dir/log/error_log" >&2 2>/dev/null
            log "CUPS lab: cupsd did not start"
            return 1
        fi
        sleep 0.1
    done
    # Right after start the scheduler may still be loading its drivers and refuse the queue
    # (seen: lpadmin exits 0 and no queue exists): added until lpstat names it.
    tries=0
    until CUPS_SERVER="127.0.0.1:$cups_port" lpstat -p badge >/dev/null 2>&1; do
        tries=$((tries + 1))
        if [ "$tries" -gt 50 ]; then
            log "CUPS lab: the badge queue could not be added"
            cat "$cups_dir/log/error_log" >&2
            return 1
        fi
        CUPS_SERVER="127.0.0.1:$cups_port" lpadmin -p badge -E -v outpostpaper:/badge \
            -m lsb/usr/cups-pdf/CUPS-PDF_opt.ppd -o printer-error-policy=stop-printer \
            -o pdftops-renderer-default=pdftops 2>"$cups_dir/log/lpadmin.err" || sleep 0.2
    done
    export OUTPOST_TEST_CUPS_URL="ipp://127.0.0.1:$cups_port/printers/badge"
    export OUTPOST_TEST_CUPS_OUT="$cups_dir/out"
    export OUTPOST_TEST_CUPS_PAPER="$cups_dir/paper"
    log "CUPS on 127.0.0.1:$cups_port (queue badge, cups-pdf into $cups_dir/out)"
}
