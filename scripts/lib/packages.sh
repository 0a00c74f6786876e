# Sourced by scripts/demo, scripts/test, scripts/soak and scripts/bench: the Debian packages Outpost
# needs, and `ensure_packages` to install the missing ones (apt-get; sudo when not root).
#
# build_packages: what `swift build` links against (every `providers: [.apt([...])]` of
# Package.swift, plus SQLite's headers); the test `first-command-installs-build-packages` checks the
# two lists agree; fonts-dejavu-core is the face the month report draws its words in.
# test_packages: what the tests need besides.
build_packages=(libqrencode-dev libzbar-dev libpng-dev libturbojpeg0-dev zlib1g-dev libsqlite3-dev libcairo2-dev fonts-dejavu-core)
# cups, cups-client and printer-driver-cups-pdf: the private print scheduler the badge tests print
# through (scripts/lib/cups-lab.sh).
test_packages=(postgresql-15 tmux openssl curl ca-certificates util-linux mount python3-venv python3-aiosmtpd
    cups cups-client printer-driver-cups-pdf)
# console_packages: the real browser the console's tests drive (scripts/console-e2e), and the
# tools that read its tickets PDF back (poppler's pdfinfo, pdftotext, pdftoppm; zbar's zbarimg).
console_packages=(chromium chromium-driver python3-venv poppler-utils zbar-tools)
# mesh_packages: the venue mesh's namespace lab (scripts/mesh-soak): iproute2 and nftables for
# the LAN and its partitions, util-linux for unshare and nsenter, D-Bus and Avahi for DNS-SD in
# each door's namespace.
mesh_packages=(iproute2 nftables util-linux dbus avahi-daemon avahi-utils)
# demo_packages: what `outpost demo` uses when present (a real SMTP server for e-mail codes; tmux
# for `--doors`, the meshed stations side by side).
demo_packages=(python3-aiosmtpd tmux)

ensure_packages() {
    local missing=() package
    for package in "$@"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    ((${#missing[@]})) || return 0
    printf '%s: installing %s\n' "$(basename "$0")" "${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}
