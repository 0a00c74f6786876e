"""The organizer console in a real browser: Debian's Chromium driven by Selenium.

scripts/console-e2e starts `outpost serve` on a fresh SQLite store, bootstraps an organizer and
runs this with OUTPOST_CONSOLE_URL, OUTPOST_CONSOLE_EMAIL and OUTPOST_CONSOLE_PASSWORD. Each check
prints one line; the last line is "N passed, M failed". With OUTPOST_CONSOLE_SCREENSHOTS set to a
folder, the guest list and the import report are saved there as PNG (the README's pictures).
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request
import uuid

import pyotp
from axe_selenium_python import Axe

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import WebDriverWait

URL = os.environ["OUTPOST_CONSOLE_URL"].rstrip("/")
EMAIL = os.environ["OUTPOST_CONSOLE_EMAIL"]
PASSWORD = os.environ["OUTPOST_CONSOLE_PASSWORD"]
SHOTS = os.environ.get("OUTPOST_CONSOLE_SCREENSHOTS")
OUTPOST = os.environ["OUTPOST_BIN"]
MAILDIR = os.environ["OUTPOST_CONSOLE_MAILDIR"]
HOSTILE = "<img src=x onerror=alert(1)>"

passed = 0
failed = 0


AXE_FOUND = {}


def accessible(driver, page):
    """axe-core (WCAG 2.1 A and AA) on the page as shown; each violation is kept by page."""
    axe = Axe(driver)
    axe.inject()
    results = driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}})"
        ".then(function (r) { done(r); }, function (e) { done({error: String(e)}); });")
    if "error" in results:
        AXE_FOUND.setdefault(page, []).append("axe could not run: " + results["error"])
        return
    for violation in results["violations"]:
        targets = [" ".join(node["target"]) for node in violation["nodes"]][:3]
        AXE_FOUND.setdefault(page, []).append(f"{violation['id']} ({violation['impact']}): {targets}")


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"console-e2e: ok: {name}")
    else:
        failed += 1
        print(f"console-e2e: FAILED: {name} {detail}")


def no_dialog(driver):
    try:
        driver.switch_to.alert
        return False
    except NoAlertPresentException:
        return True


def main():
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    # The browser is in São Paulo (the server is wherever it is): a new event offers the browser's zone.
    service = Service("/usr/bin/chromedriver", env={**os.environ, "TZ": "America/Sao_Paulo"})
    driver = webdriver.Chrome(service=service, options=options)
    wait = WebDriverWait(driver, 15)
    try:
        run(driver, wait)
    except Exception:
        # Where it stopped, as the person would have seen it.
        print(f"console-e2e: at {driver.current_url}:")
        print("\n".join("  | " + line for line in driver.find_element(By.TAG_NAME, "body").text.splitlines()[:40]))
        raise
    finally:
        driver.quit()


def set_value(driver, element, value):
    # datetime-local fields take typed text differently per locale; set them as a person's picker would.
    driver.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));", element, value)


def follow(driver, wait, element):
    """Clicks what loads a new page and waits until the old page is gone and the new one has
    loaded, so nothing that follows reads an element of a document in transition."""
    page = driver.find_element(By.TAG_NAME, "html")
    element.click()
    wait.until(gone(page))
    wait.until(loaded)


def gone(element):
    """Selenium's staleness_of, also for Chromium's other word for a stale node: while the old
    document is being replaced it answers 'Node with given id does not belong to the document'
    (a WebDriverException, not a StaleElementReferenceException), which staleness_of raised
    instead of waiting on (3 of 10 clean-clone runs of this script failed so, at any click)."""
    def check(_):
        try:
            element.is_enabled()
            return False
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return True
            raise
    return check


def loaded(driver):
    """True once the current document has finished loading (false while it is being replaced)."""
    try:
        return driver.execute_script("return document.readyState") == "complete"
    except WebDriverException:
        return False


def device_at(home, *arguments):
    """`outpost device ARGUMENTS --home HOME`; true when it exits 0 (its error printed if not)."""
    answer = subprocess.run([OUTPOST, "device", *arguments, "--home", home], capture_output=True, text=True)
    if answer.returncode != 0:
        print(f"console-e2e: outpost device {arguments[0]}: {answer.stderr.strip()[:300]}")
    return answer.returncode == 0


def mesh_doors(home, home2):
    """Runs the doors at HOME and HOME2 as `outpost device mesh`, the second joined to the first
    on loopback, until each sees the other (20 s at most); then each syncs (hands in its entries
    and reports the doors it met). Returns the peers each saw, or an empty list on failure."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    first = subprocess.Popen([OUTPOST, "device", "mesh", "--home", home, "--listen", f"127.0.0.1:{port}", "--json"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    second = subprocess.Popen([OUTPOST, "device", "mesh", "--home", home2, "--listen", "127.0.0.1:0",
                               "--join", f"127.0.0.1:{port}", "--json"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def ask(door, command):
        door.stdin.write(command + "\n")
        door.stdin.flush()
        line = door.stdout.readline()
        return json.loads(line) if line.startswith("{") else {}

    seen = []
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            seen = [ask(door, "peers").get("peers", {}) for door in (first, second)]
            if all(seen):
                break
            time.sleep(0.2)
        if all(seen):
            for door in (first, second):
                ask(door, "sync")
    finally:
        for door in (first, second):
            door.stdin.close()
            door.wait(timeout=30)
    return seen if all(seen) else []


def run(driver, wait):
    # Sign in with the API's account; a wrong password first.
    driver.get(URL + "/admin")
    wait.until(ready.presence_of_element_located((By.ID, "signin")))
    driver.find_element(By.ID, "email").send_keys(EMAIL)
    driver.find_element(By.ID, "password").send_keys("not the password")
    follow(driver, wait, driver.find_element(By.ID, "signin"))
    error = wait.until(ready.presence_of_element_located((By.ID, "error")))
    check("a wrong password is refused in words", "wrong" in error.text, error.text)
    driver.find_element(By.ID, "email").clear()
    driver.find_element(By.ID, "email").send_keys(EMAIL)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    follow(driver, wait, driver.find_element(By.ID, "signin"))
    wait.until(ready.presence_of_element_located((By.ID, "events")))
    check("signed in: the events page", driver.current_url.endswith("/admin/events"), driver.current_url)
    check("the bar names the signed-in user", driver.find_element(By.ID, "signed-in-user").text == "Olivia Organizer",
          driver.find_element(By.ID, "signed-in-user").text)
    cookie = driver.get_cookie("outpost_console") or {}
    check("the session cookie is HttpOnly and SameSite=Strict",
          cookie.get("httpOnly") is True and cookie.get("sameSite") == "Strict", str(cookie))

    # Create an event: the tenant has no zone for new events, so the form offers the browser's.
    check("a new event offers the browser's time zone",
          driver.find_element(By.ID, "event-zone").get_attribute("value") == "America/Sao_Paulo",
          driver.find_element(By.ID, "event-zone").get_attribute("value"))
    # First with its end before its start: the form comes back as typed, the reason beside "Ends".
    driver.find_element(By.ID, "event-name").send_keys("Winter Gala")
    set_value(driver, driver.find_element(By.ID, "event-starts"), "2026-12-12T17:00")
    set_value(driver, driver.find_element(By.ID, "event-ends"), "2026-12-12T16:00")
    zone = driver.find_element(By.ID, "event-zone")
    zone.clear()
    zone.send_keys("Europe/Oslo")
    follow(driver, wait, driver.find_element(By.ID, "create-event"))
    ends = driver.find_element(By.ID, "event-ends")
    check("a refused event keeps what was typed, the reason beside its field",
          driver.find_element(By.ID, "event-name").get_attribute("value") == "Winter Gala"
          and driver.find_element(By.ID, "event-zone").get_attribute("value") == "Europe/Oslo"
          and ends.get_attribute("aria-invalid") == "true"
          and driver.find_element(By.ID, "event-ends-error").text == "The end must not be before the start.",
          driver.find_element(By.ID, "new-event").text)
    set_value(driver, driver.find_element(By.ID, "event-ends"), "2026-12-12T23:00")
    follow(driver, wait, driver.find_element(By.ID, "create-event"))
    title = wait.until(ready.presence_of_element_located((By.ID, "event-title")))
    check("the event was created", title.text == "Winter Gala", title.text)
    check("its header says when, on its own clock and zone, and counts its guests",
          driver.find_element(By.ID, "event-when").text == "2026-12-12 17:00 – 2026-12-12 23:00"
          and driver.find_element(By.ID, "event-zone-shown").text == "Europe/Oslo"
          and driver.find_element(By.ID, "event-counts").text == "0 guests, 0 checked in",
          driver.find_element(By.CSS_SELECTOR, ".event-facts").text)
    check("and said so", "created" in driver.find_element(By.ID, "notice").text)

    # Its access types.
    for name in ("General", "VIP"):
        driver.find_element(By.ID, "access-type-name").send_keys(name)
        if name == "General":  # walk-ins at the door, five places in all
            driver.find_element(By.ID, "access-type-walkin").click()
            driver.find_element(By.ID, "access-type-capacity").send_keys("5")
        follow(driver, wait, driver.find_element(By.ID, "add-access-type"))
        wait.until(ready.text_to_be_present_in_element((By.ID, "access-types"), name))
    check("two access types", len(driver.find_elements(By.CSS_SELECTOR, "#access-types li")) == 2)
    check("General admits five walk-ins", "5 walk-in places" in driver.find_element(By.ID, "access-types").text)

    # A door staff user, put on the event's staff.
    event_url = driver.current_url.split("?")[0]
    follow(driver, wait, driver.find_element(By.ID, "staff-nav"))
    wait.until(ready.presence_of_element_located((By.ID, "new-user")))
    driver.find_element(By.ID, "user-name").send_keys("Dora Door")
    driver.find_element(By.ID, "user-email").send_keys("dora@acme.test")
    driver.find_element(By.ID, "user-password").send_keys("door-password")
    follow(driver, wait, driver.find_element(By.ID, "create-user"))
    wait.until(ready.text_to_be_present_in_element((By.ID, "users"), "Dora Door"))
    check("a staff user was created, their role in words", "Check-in staff" in driver.find_element(By.ID, "users").text
          and "checkin_staff" not in driver.find_element(By.ID, "users").text)
    check("the bar marks Staff as the current section",
          driver.find_element(By.ID, "staff-nav").get_attribute("aria-current") == "page"
          and driver.find_element(By.ID, "events-nav").get_attribute("aria-current") is None)
    check("the bar names the signed-in role in words", driver.find_element(By.ID, "signed-in-role").text == "Organizer")
    driver.get(event_url)
    wait.until(ready.presence_of_element_located((By.ID, "assign-staff")))
    check("on an event's page the bar marks Events",
          driver.find_element(By.ID, "events-nav").get_attribute("aria-current") == "page"
          and driver.find_element(By.ID, "staff-nav").get_attribute("aria-current") is None)
    # Nobody is chosen until the organizer chooses: a click on the button alone sends nothing.
    driver.find_element(By.ID, "assign").click()
    check("the staff picker starts empty and requires a choice",
          driver.execute_script("return document.getElementById('assign-user').validity.valueMissing")
          and "Dora Door" not in driver.find_element(By.ID, "event-staff").text)
    Select(driver.find_element(By.ID, "assign-user")).select_by_visible_text("Dora Door (Check-in staff)")
    follow(driver, wait, driver.find_element(By.ID, "assign"))
    wait.until(ready.text_to_be_present_in_element((By.ID, "event-staff"), "Dora Door"))
    check("and put on the event's staff", "on the staff" in driver.find_element(By.ID, "notice").text)

    # The kiosk: a weak passcode is refused with the rule it breaks; a good one is kept.
    driver.find_element(By.ID, "kiosk-passcode").send_keys("123456")
    follow(driver, wait, driver.find_element(By.ID, "save-kiosk"))
    wait.until(ready.text_to_be_present_in_element((By.TAG_NAME, "h1"), "Not saved"))
    check("a weak kiosk passcode is refused in words",
          driver.find_element(By.TAG_NAME, "h1").text == "Not saved" and "run of digits" in driver.find_element(By.TAG_NAME, "main").text,
          driver.find_element(By.TAG_NAME, "main").text[:200])
    driver.get(event_url)
    driver.find_element(By.ID, "kiosk-passcode").send_keys("394817")
    follow(driver, wait, driver.find_element(By.ID, "save-kiosk"))
    wait.until(ready.text_to_be_present_in_element((By.ID, "kiosk-state"), "Set up"))
    check("a good one sets the kiosk up", "portrait" in driver.find_element(By.ID, "kiosk-state").text)

    # Import a CSV with a bad row and a hostile name: the good rows land, the bad one is reported.
    csv = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, encoding="utf-8")
    csv.write("name,email,access_type,notes\r\n")
    csv.write("Ada Lovelace,ada@example.org,General,\r\n")
    csv.write("Nobody,nobody@example.org,Backstage,\r\n")
    csv.write(f"{HOSTILE},mallory@example.org,VIP,<script>alert(2)</script>\r\n")
    csv.write("Émile Zola,emile@example.org,General,\r\n")
    for index in range(60):
        csv.write(f"Guest {index:03d},guest{index}@example.org,General,\r\n")
    csv.close()
    follow(driver, wait, driver.find_element(By.ID, "import-link"))
    upload = wait.until(ready.presence_of_element_located((By.ID, "csv-file")))
    upload.send_keys(csv.name)
    wait.until(ready.visibility_of_element_located((By.ID, "import-columns")))
    check("the file's columns are offered for each field, its own names chosen",
          Select(driver.find_element(By.ID, "column-access_type")).first_selected_option.text == "access_type")
    driver.find_element(By.ID, "upload").click()
    summary = wait.until(ready.visibility_of_element_located((By.ID, "import-summary")))
    wait.until(lambda _: "imported" in summary.text)
    check("the report counts the import", summary.text.startswith("63 imported"), summary.text)
    rows = driver.find_elements(By.CSS_SELECTOR, "#import-errors tbody tr")
    check("the bad row is reported by its line", len(rows) == 1 and rows[0].text.startswith("3 "),
          "|".join(row.text for row in rows))
    check("the upload's progress reached the end",
          driver.find_element(By.ID, "import-progress").get_attribute("value") == "100")
    if SHOTS:
        driver.save_screenshot(os.path.join(SHOTS, "console-import-report.png"))
    os.unlink(csv.name)

    # The guest list: the hostile name is text, no dialog opens; search and paging.
    follow(driver, wait, driver.find_element(By.LINK_TEXT, "Winter Gala"))
    follow(driver, wait, driver.find_element(By.ID, "guests-link"))
    wait.until(ready.presence_of_element_located((By.ID, "guests")))
    check("the guest list says where its first page is", driver.find_element(By.ID, "guest-count").text == "1–50 of 63",
          driver.find_element(By.ID, "guest-count").text)
    names = [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "td.guest-name")]
    check("a hostile name is shown as text", HOSTILE in names, str(names[:3]))
    check("no image element came of it", not driver.find_elements(By.CSS_SELECTOR, "#guests img"))
    check("no dialog opened", no_dialog(driver))
    check("50 a page", len(names) == 50, str(len(names)))
    # Sorted as people read names: É beside E, not after Z.
    check("Émile sorts after Ada, before the Guests", "Émile Zola" in names
          and names.index("Émile Zola") == names.index("Ada Lovelace") + 1, str(names[:4]))
    follow(driver, wait, driver.find_element(By.ID, "next-page"))
    wait.until(ready.presence_of_element_located((By.ID, "first-page")))
    check("the next page has the rest", len(driver.find_elements(By.CSS_SELECTOR, "td.guest-name")) == 13)
    search = driver.find_element(By.ID, "q")
    search.clear()
    search.send_keys("lovelace")
    follow(driver, wait, driver.find_element(By.ID, "filter"))
    wait.until(ready.text_to_be_present_in_element((By.ID, "guest-count"), "1 guest"))
    check("search by name", [c.text for c in driver.find_elements(By.CSS_SELECTOR, "td.guest-name")] == ["Ada Lovelace"])
    # A full name: the form sends "Guest+007", and + is a space.
    for typed, found in [("Guest 007", "Guest 007"), ("émile", "Émile Zola"), ("EMILE ZOLA", "Émile Zola")]:
        search = driver.find_element(By.ID, "q")
        search.clear()
        search.send_keys(typed)
        follow(driver, wait, driver.find_element(By.ID, "filter"))
        wait.until(ready.presence_of_element_located((By.ID, "guest-count")))
        shown = [c.text for c in driver.find_elements(By.CSS_SELECTOR, "td.guest-name")]
        check(f"search for '{typed}' finds {found}", shown == [found], str(shown))
    search = driver.find_element(By.ID, "q")
    search.clear()
    follow(driver, wait, driver.find_element(By.ID, "filter"))
    wait.until(ready.text_to_be_present_in_element((By.ID, "guest-count"), "1–50 of 63"))
    if SHOTS:
        driver.save_screenshot(os.path.join(SHOTS, "console-guests.png"))
    check("still no dialog", no_dialog(driver))

    # The tickets PDF: a page per guest, the hostile name printed as text, a QR code that scans.
    link = driver.find_element(By.LINK_TEXT, "Winter Gala").get_attribute("href")
    driver.get(link)
    href = driver.find_element(By.ID, "tickets-link").get_attribute("href")
    cookie = driver.get_cookie("outpost_console")
    request = urllib.request.Request(href, headers={"Cookie": f"outpost_console={cookie['value']}"})
    with urllib.request.urlopen(request) as answer:
        kind = answer.headers.get("Content-Type")
        pdf = answer.read()
    check("the tickets download as a PDF", kind == "application/pdf" and pdf.startswith(b"%PDF-"), str(kind))
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "tickets.pdf")
    with open(path, "wb") as file:
        file.write(pdf)
    info = subprocess.run(["pdfinfo", path], capture_output=True, text=True).stdout
    pages = next((line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")), "?")
    check("a page per guest", pages == "63", pages)
    text = subprocess.run(["pdftotext", "-f", "1", "-l", "1", path, "-"], capture_output=True, text=True).stdout
    check("the hostile name is printed as text", HOSTILE in text, text[:120])
    subprocess.run(["pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "1", path, os.path.join(folder, "page")],
                   check=True)
    image = next(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".png"))
    scanned = subprocess.run(["zbarimg", "--quiet", "--raw", image], capture_output=True, text=True).stdout.strip()
    check("its QR code scans as a ticket", scanned.startswith("OP1") and len(scanned) > 100, scanned[:40])
    if SHOTS:
        subprocess.run(["cp", image, os.path.join(SHOTS, "console-ticket.png")], check=True)

    # EFx zone access control: the organizer turns the stations on and adds a zone whose name is
    # markup; it is text on the zones page and, below, on the live dashboard.
    driver.get(event_url)
    follow(driver, wait, driver.find_element(By.ID, "zones-link"))
    follow(driver, wait, driver.find_element(By.ID, "efx-toggle"))
    check("EFx stations turned on", "EFx stations are on" in driver.find_element(By.ID, "efx-state").text)
    driver.find_element(By.ID, "zone-name").send_keys(HOSTILE + " lounge")
    driver.find_element(By.ID, "zone-capacity").send_keys("30")
    for box in driver.find_elements(By.CSS_SELECTOR, "input.zone-admit"):
        box.click()
    follow(driver, wait, driver.find_element(By.ID, "zone-add"))
    zones_text = driver.find_element(By.ID, "zones").text
    check("the zone's name is text on the zones page", HOSTILE + " lounge" in zones_text and "0 of 30" in zones_text,
          zones_text)
    check("no dialog on the zones page", no_dialog(driver))

    # EFx product pickup: an item whose name is markup, one per ticket of every access type, and
    # single guests' extras pasted as CSV with one bad line, which the page lists.
    driver.get(event_url)
    follow(driver, wait, driver.find_element(By.ID, "pickup-link"))
    driver.find_element(By.ID, "pickup-name").send_keys(HOSTILE + " shirt")
    driver.find_element(By.ID, "pickup-stock").send_keys("5")
    for field in driver.find_elements(By.CSS_SELECTOR, "input.pickup-allow"):
        field.clear()
        field.send_keys("1")
    follow(driver, wait, driver.find_element(By.ID, "pickup-add"))
    items_text = driver.find_element(By.ID, "pickup-items").text
    check("the item's name is text on the pickup page", HOSTILE + " shirt" in items_text and " 5 0 5 0" in items_text,
          items_text)
    driver.find_element(By.ID, "pickup-csv").send_keys(
        "email,item,quantity\nnobody@example.org," + HOSTILE + " shirt,1\n")
    follow(driver, wait, driver.find_element(By.ID, "pickup-import"))
    errors = driver.find_element(By.ID, "pickup-import-errors").text
    check("the bad CSV line is listed with its reason", "Line 2: No guest of this event has the e-mail" in errors, errors)
    check("no dialog on the pickup page", no_dialog(driver))

    # EFx lead retrieval: a booth whose name is markup, with no exhibitor yet (the API's test and
    # the device's cover capture); the booths page shows its name as text.
    driver.get(event_url)
    follow(driver, wait, driver.find_element(By.ID, "booths-link"))
    driver.find_element(By.ID, "booth-name").send_keys(HOSTILE + " booth")
    driver.find_element(By.ID, "booth-questions").send_keys("Budget this year?")
    follow(driver, wait, driver.find_element(By.ID, "booth-add"))
    booths_text = driver.find_element(By.ID, "booths").text
    check("the booth's name is text on the booths page", HOSTILE + " booth" in booths_text and "Budget this year?" in booths_text,
          booths_text)
    follow(driver, wait, driver.find_element(By.CSS_SELECTOR, "#booths tbody a"))
    check("the booth's leads page names it as text, no leads yet",
          HOSTILE + " booth" in driver.find_element(By.TAG_NAME, "h1").text
          and "No leads yet." in driver.find_element(By.ID, "leads").text)
    check("no dialog on the booths pages", no_dialog(driver))

    # The doors, live: the dashboard is open when a device (the headless staff app) scans the
    # printed ticket and checks the guest in; the page changes without a reload.
    driver.get(event_url)
    follow(driver, wait, driver.find_element(By.ID, "dashboard-link"))
    wait.until(ready.text_to_be_present_in_element((By.ID, "live-state"), "Live"))
    total = driver.find_element(By.ID, "total").text
    check("the dashboard counts nobody in yet", total == "0 of 63 checked in", total)
    driver.execute_script("document.body.dataset.marker = 'the same page';")
    home = tempfile.mkdtemp()
    event_id = event_url.rstrip("/").split("/")[-1]

    def device(*arguments):
        return device_at(home, *arguments)

    signed_in = device("signin", "--server", URL, "--email", "dora@acme.test", "--password", "door-password")
    opened = signed_in and device("open", event_id)
    check("a door device signs in and opens the event", opened)
    wait.until(ready.text_to_be_present_in_element((By.ID, "devices"), "Dora Door"))
    check("the device shows on the dashboard, holding nothing",
          "Dora Door" in driver.find_element(By.ID, "devices").text)
    scanned_in = device("scan", "--image", image) and device("confirm")
    check("the device scans the printed ticket and checks the guest in", scanned_in)
    wait.until(ready.text_to_be_present_in_element((By.ID, "total"), "1 of 63 checked in"))
    marker = driver.execute_script("return document.body.dataset.marker")
    check("the count changed without a reload", marker == "the same page", str(marker))
    recent = driver.find_elements(By.CSS_SELECTOR, "#recent tbody tr")
    check("the last check-ins name the guest as text", len(recent) == 1 and HOSTILE in recent[0].text,
          "|".join(row.text for row in recent))
    bars = driver.find_elements(By.CSS_SELECTOR, "#bars rect.fill")
    check("a bar per access type", len(bars) == 2, str(len(bars)))
    columns = driver.find_elements(By.CSS_SELECTOR, "#columns rect")
    heights = [column.get_attribute("height") for column in columns]
    caption = driver.find_element(By.ID, "chart-caption").text
    # The minute may have turned since the scan: the check-in is in one of the last two columns.
    check("the per-minute chart has the hour and the check-in",
          len(columns) == 60 and heights[-2:] != ["0", "0"] and caption.startswith("1 in the last hour"),
          f"{len(columns)} {heights[-2:]} {caption}")
    # The same device as a zone station at the lounge: the guest goes in, the zone's count moves live.
    shown = subprocess.run([OUTPOST, "device", "zone", "show", "--home", home, "--json"],
                           capture_output=True, text=True)
    zone_ids = [element["attributes"].get("zoneId") for element in json.loads(shown.stdout.splitlines()[-1])["elements"]
                if element["id"] == "efx-zone-choice"] if shown.returncode == 0 else []
    entered = (len(zone_ids) == 1 and device("zone", "set", "--zone", zone_ids[0], "--direction", "entry")
               and device("zone", "scan", "--image", image) and device("sync"))
    check("the device, as a zone station, lets the guest into the lounge", entered, shown.stderr[:300])
    wait.until(ready.text_to_be_present_in_element((By.ID, "zones"), "1 of 30"))
    zone_rows = driver.find_element(By.ID, "zones").text
    check("the dashboard counts the zone as text", HOSTILE + " lounge" in zone_rows, zone_rows)
    # The same device as a pickup station hands the guest their shirt; the console counts it.
    handed = device("pickup", "scan", "--image", image, "--all") and device("sync")
    check("the device, as a pickup station, hands the guest the item", handed)
    # The venue mesh, live: the same door and a second one (another home, Dora again) meet on
    # loopback as two real `outpost device mesh` processes, then each syncs; the dashboard lists
    # both as meshed, each naming the other.
    home2 = tempfile.mkdtemp()
    second = (device_at(home2, "signin", "--server", URL, "--email", "dora@acme.test", "--password", "door-password")
              and device_at(home2, "open", event_id))
    check("a second door device signs in and opens the event", second)
    met = mesh_doors(home, home2)
    check("the two doors meet in the venue mesh and sync", met, str(met))
    # Each door's report moves the page on its own: wait for both rows, not the first.
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#mesh tbody tr")) == 2)
    mesh_rows = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
                 for row in driver.find_elements(By.CSS_SELECTOR, "#mesh tbody tr")]
    # Each door's row names the other in its Met column (device ids, as the console shortens them).
    label = lambda device_id: device_id[:8] + "…" if len(device_id) > 12 else device_id
    doors = [label(next(iter(peers), "")) for peers in met] if met else []
    pairs = list(zip(doors, reversed(doors)))  # (the second door, met by the first), and back
    check("the dashboard's venue mesh lists both doors, live, each having met the other",
          len(mesh_rows) == 2 and len(pairs) == 2
          and all(any(row[0] == door and other in row[2] for row in mesh_rows) for other, door in pairs),
          f"{mesh_rows} {pairs}")
    check("no dialog on the dashboard", no_dialog(driver))
    ticks = [tick.text for tick in driver.find_elements(By.CSS_SELECTOR, "#ticks text")]
    scale = [mark.text for mark in driver.find_elements(By.CSS_SELECTOR, "#scale text")]
    check("the chart has a time axis and a scale", len(ticks) >= 4 and all(":" in tick for tick in ticks)
          and scale[0] == "0" and scale[-1] == "1", f"{ticks} {scale}")
    if SHOTS:
        driver.save_screenshot(os.path.join(SHOTS, "console-dashboard.png"))
        driver.find_element(By.ID, "zones-section").screenshot(os.path.join(SHOTS, "console-zone-occupancy.png"))
    # TV mode: the door manager's screen, the page alone in large type, still live.
    follow(driver, wait, driver.find_element(By.ID, "tv-link"))
    wait.until(ready.text_to_be_present_in_element((By.ID, "live-state"), "Live"))
    check("TV mode is the dashboard alone, in large type, live",
          driver.find_element(By.TAG_NAME, "body").get_attribute("class") == "tv"
          and not driver.find_element(By.CSS_SELECTOR, "header.bar").is_displayed()
          and driver.find_element(By.ID, "total").value_of_css_property("font-size") == "64px",
          driver.find_element(By.ID, "total").value_of_css_property("font-size"))
    if SHOTS:
        driver.save_screenshot(os.path.join(SHOTS, "console-dashboard-tv.png"))
    driver.get(event_url)
    follow(driver, wait, driver.find_element(By.ID, "pickup-link"))
    items_text = driver.find_element(By.ID, "pickup-items").text
    check("the pickup page counts the item handed out: 5 in stock, 1 out, 4 left", " 5 1 4 0" in items_text, items_text)
    stations = driver.find_elements(By.CSS_SELECTOR, "#pickup-stations tbody tr")
    check("one station handed it out", len(stations) == 1 and HOSTILE + " shirt" in stations[0].text,
          "|".join(row.text for row in stations))

    # A walk-in at the door (the device leases places of General first), then the walk-ins page.
    walked_in = device("walkin", "add", "--name", "Walt <b>Walker</b>", "--type", "General", "--paid", "20",
                       "--method", "cash")
    check("the device adds a walk-in and checks them in", walked_in)
    driver.get(event_url)
    follow(driver, wait, driver.find_element(By.ID, "walkins-link"))
    walk_ins = wait.until(ready.presence_of_element_located((By.ID, "walkins")))
    check("the walk-in is listed with who added them and what was paid, as text",
          "Walt <b>Walker</b>" in walk_ins.text and "Dora Door" in walk_ins.text and "20.00 EUR (cash)" in walk_ins.text,
          walk_ins.text)
    places = driver.find_element(By.ID, "walkin-places").text
    check("General's places: 5, one admitted", "General 5 1" in places, places)
    shifts = driver.find_element(By.ID, "walkin-shifts").text
    check("the end-of-shift summary has the device's cash", "cash 1 20.00 EUR" in shifts, shifts)
    if SHOTS:
        driver.save_screenshot(os.path.join(SHOTS, "console-walkins.png"))

    # Ticket blocks (EF-069): a sponsor's block whose partner is markup, two tickets; the
    # organizer names one on the block's page; both pages show the names as text.
    driver.get(event_url)
    follow(driver, wait, driver.find_element(By.ID, "ticket-blocks-link"))
    driver.find_element(By.ID, "block-partner").send_keys(HOSTILE + " sponsor")
    driver.find_element(By.CSS_SELECTOR, "#block-access-type option:nth-child(2)").click()
    driver.find_element(By.ID, "block-size").send_keys("2")
    driver.execute_script("arguments[0].value = '2030-01-01T12:00'", driver.find_element(By.ID, "block-deadline"))
    follow(driver, wait, driver.find_element(By.ID, "block-add"))
    blocks_text = driver.find_element(By.ID, "ticket-blocks").text
    check("the block's partner is text on the ticket blocks page",
          HOSTILE + " sponsor" in blocks_text and "0 of 2" in blocks_text, blocks_text)
    follow(driver, wait, driver.find_element(By.CSS_SELECTOR, "#ticket-blocks tbody a"))
    check("the block's page names the partner as text",
          HOSTILE + " sponsor" in driver.find_element(By.ID, "block-title").text
          and "Sponsor: " + HOSTILE + " sponsor (block of 2)" in driver.find_element(By.ID, "block-scope").text)
    driver.find_element(By.CSS_SELECTOR, "input.block-ticket-name").send_keys(HOSTILE + " holder")
    driver.find_element(By.CSS_SELECTOR, "input.block-ticket-email").send_keys("holder@example.org")
    follow(driver, wait, driver.find_element(By.CSS_SELECTOR, "button.block-ticket-save"))
    named = driver.find_element(By.CSS_SELECTOR, "input.block-ticket-name").get_attribute("value")
    check("the named ticket keeps its name as text", named == HOSTILE + " holder", named)
    check("no dialog on the ticket block pages", no_dialog(driver))

    # The check-in desk: a guest checked in from the list (back to the same search), then the
    # check-in taken back on their page with a reason, which the history keeps, and checked in again.
    driver.get(event_url)
    follow(driver, wait, driver.find_element(By.ID, "guests-link"))
    search = driver.find_element(By.ID, "q")
    search.send_keys("lovelace")
    follow(driver, wait, driver.find_element(By.ID, "filter"))
    follow(driver, wait, driver.find_element(By.CSS_SELECTOR, "#guests button.check-in-row"))
    check("checked in from the list, back on the same search",
          "Checked in." in driver.find_element(By.ID, "notice").text
          and driver.find_element(By.ID, "q").get_attribute("value") == "lovelace"
          and "Olivia Organizer" in driver.find_element(By.ID, "guests").text
          and not driver.find_elements(By.CSS_SELECTOR, "#guests button.check-in-row"),
          driver.find_element(By.ID, "guests").text)
    follow(driver, wait, driver.find_element(By.CSS_SELECTOR, "td.guest-name a"))
    check("the guest's page says who checked them in, on which device",
          "on console" in driver.find_element(By.ID, "checked-in").text, driver.find_element(By.ID, "checked-in").text)
    driver.find_element(By.ID, "undo-reason").send_keys(HOSTILE + " scanned by mistake")
    follow(driver, wait, driver.find_element(By.ID, "undo-check-in-button"))
    history = driver.find_element(By.ID, "guest-history").text
    check("the check-in is undone and the history keeps it with the reason, as text",
          "undone" in driver.find_element(By.ID, "notice").text and "Check-in undone" in history
          and HOSTILE + " scanned by mistake" in history and "Checked in" in history, history)
    check("no dialog on the guest's page", no_dialog(driver))
    follow(driver, wait, driver.find_element(By.ID, "check-in-button"))
    check("checked in again from the guest's page", driver.find_element(By.ID, "checked-in").is_displayed())

    # A guest field of the event's own, a choice, defined on the event page with a hostile label,
    # then set on this guest's page.
    guest_url = driver.current_url.split("?")[0]
    driver.get(event_url)
    driver.find_element(By.ID, "guest-field-label").send_keys("T-shirt " + HOSTILE)
    Select(driver.find_element(By.ID, "guest-field-kind")).select_by_value("choice")
    driver.find_element(By.ID, "guest-field-choices").send_keys("S, M, L")
    follow(driver, wait, driver.find_element(By.ID, "add-guest-field"))
    check("a guest field is added to the event, its label as text",
          "T-shirt " + HOSTILE in driver.find_element(By.ID, "guest-field-list").text and no_dialog(driver),
          driver.find_element(By.ID, "guest-field-list").text)
    driver.get(guest_url)
    field = driver.find_element(By.CSS_SELECTOR, "select.guest-field")
    check("the guest's page asks it, labelled", field.accessible_name.startswith("T-shirt"), field.accessible_name)
    Select(field).select_by_visible_text("M")
    follow(driver, wait, driver.find_element(By.ID, "save-guest"))
    check("and keeps the guest's value",
          Select(driver.find_element(By.CSS_SELECTOR, "select.guest-field")).first_selected_option.text == "M")

    # Settings: new events in Auckland from now on; then the Winter Gala cloned for next year.
    follow(driver, wait, driver.find_element(By.ID, "settings-nav"))
    zone = driver.find_element(By.ID, "tenant-zone")
    zone.clear()
    zone.send_keys("Pacific/Auckland")
    follow(driver, wait, driver.find_element(By.ID, "save-settings"))
    check("the settings were saved", "Saved" in driver.find_element(By.ID, "notice").text)
    follow(driver, wait, driver.find_element(By.ID, "events-nav"))
    check("a new event now starts in the tenant's zone",
          driver.find_element(By.ID, "event-zone").get_attribute("value") == "Pacific/Auckland",
          driver.find_element(By.ID, "event-zone").get_attribute("value"))
    driver.get(event_url)
    name = driver.find_element(By.ID, "clone-name")
    name.clear()
    name.send_keys("Winter Gala 2027")
    set_value(driver, driver.find_element(By.ID, "clone-starts"), "2027-12-11T17:00")
    set_value(driver, driver.find_element(By.ID, "clone-ends"), "2027-12-11T23:00")
    follow(driver, wait, driver.find_element(By.ID, "clone-event-button"))
    clone_url = driver.current_url.split("?")[0]
    check("the clone opens with the original's access types and staff, and no guests",
          driver.find_element(By.ID, "event-title").text == "Winter Gala 2027"
          and len(driver.find_elements(By.CSS_SELECTOR, "#access-types li")) == 2
          and "Dora Door" in driver.find_element(By.ID, "event-staff").text
          and driver.find_element(By.ID, "event-counts").text == "0 guests, 0 checked in",
          driver.find_element(By.TAG_NAME, "main").text[:300])
    follow(driver, wait, driver.find_element(By.ID, "events-nav"))
    counts = [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#events td.event-counts")]
    # 63 imported, a walk-in and a block of two; the printed ticket, the walk-in and Ada in.
    check("the events list counts each event, the clone after the original",
          len(counts) == 2 and counts[0] == "3 of 66" and counts[1] == "0 of 0", str(counts))

    # A bulk e-mail: 500 more guests imported, found by a search, their tickets mailed from the
    # list through the mail queue to the SMTP server on loopback.
    bulk = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, encoding="utf-8")
    bulk.write("name,email,access_type,notes\r\n")
    for index in range(500):
        bulk.write(f"Bulk Guest {index:03d},bulk{index}@example.org,General,\r\n")
    bulk.close()
    driver.get(event_url)
    follow(driver, wait, driver.find_element(By.ID, "import-link"))
    wait.until(ready.presence_of_element_located((By.ID, "csv-file"))).send_keys(bulk.name)
    driver.find_element(By.ID, "upload").click()
    summary = wait.until(ready.visibility_of_element_located((By.ID, "import-summary")))
    wait.until(lambda _: "imported" in summary.text)
    driver.get(event_url)
    follow(driver, wait, driver.find_element(By.ID, "guests-link"))
    driver.find_element(By.ID, "q").send_keys("bulk guest")
    follow(driver, wait, driver.find_element(By.ID, "filter"))
    check("the search finds the 500, a page at a time",
          driver.find_element(By.ID, "guest-count").text == "1–50 of 500", driver.find_element(By.ID, "guest-count").text)
    if SHOTS:
        driver.save_screenshot(os.path.join(SHOTS, "console-guests-bulk.png"))
    follow(driver, wait, driver.find_element(By.ID, "mail-guests-button"))
    check("their 500 tickets are queued", "500 ticket(s) queued" in driver.find_element(By.ID, "notice").text,
          driver.find_element(By.ID, "notice").text)
    delivered = []
    deadline = time.time() + 120
    while time.time() < deadline:
        delivered = os.listdir(os.path.join(MAILDIR, "new"))
        if len(delivered) >= 501:
            break
        time.sleep(0.2)
    recipients = set()
    for name in delivered:
        with open(os.path.join(MAILDIR, "new", name), encoding="utf-8", errors="replace") as message:
            for line in message:
                if line.lower().startswith("to:"):
                    recipients.add(line.split(":", 1)[1].strip())
                    break
    # (One mail came before: the ticket block's ticket named above went to its holder.)
    check("the mail queue delivered the 500 to them alone",
          recipients == {f"bulk{index}@example.org" for index in range(500)} | {"holder@example.org"},
          f"{len(delivered)} delivered, {len(recipients)} recipients")

    # Bulk: two of the 500 ticked and their registrations cancelled from the list; then the list
    # sorted by e-mail, the other way round.
    driver.get(event_url + "/guests?q=bulk+guest+00")
    ticks = driver.find_elements(By.CSS_SELECTOR, "input.guest-tick")
    for tick in ticks[:2]:
        tick.click()
    Select(driver.find_element(By.ID, "bulk-action")).select_by_value("cancel")
    follow(driver, wait, driver.find_element(By.ID, "bulk-apply"))
    check("two ticked guests cancelled from the list", "2 guest(s) changed, 0 refused" in driver.find_element(By.ID, "notice").text,
          driver.find_element(By.ID, "notice").text)
    check("the list shows them cancelled", [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#guests tbody td:nth-child(5)")][:2]
          == ["cancelled", "cancelled"])
    follow(driver, wait, driver.find_element(By.ID, "sort-email"))
    follow(driver, wait, driver.find_element(By.ID, "sort-email"))
    emails = [row.find_elements(By.TAG_NAME, "td")[2].text for row in driver.find_elements(By.CSS_SELECTOR, "#guests tbody tr")]
    check("sorted by e-mail the other way round, the search kept", emails == sorted(emails, reverse=True) and len(emails) == 10,
          str(emails))

    # An import whose header names the columns otherwise, with one bad row: the e-mail and the
    # ticket are recognised, the name's column is chosen by hand.
    mapped = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, encoding="utf-8")
    mapped.write("Guest of honour,Mail,Ticket\r\nGrace Hopper,grace@example.org,General\r\n")
    mapped.write("No Address,not-an-address,General\r\n")
    mapped.close()
    driver.get(event_url + "/import")
    wait.until(ready.presence_of_element_located((By.ID, "csv-file"))).send_keys(mapped.name)
    wait.until(ready.visibility_of_element_located((By.ID, "import-columns")))
    check("the mapped file's e-mail and ticket columns are recognised",
          Select(driver.find_element(By.ID, "column-email")).first_selected_option.text == "Mail"
          and Select(driver.find_element(By.ID, "column-access_type")).first_selected_option.text == "Ticket")
    Select(driver.find_element(By.ID, "column-name")).select_by_visible_text("Guest of honour")
    driver.find_element(By.ID, "upload").click()
    summary = wait.until(ready.visibility_of_element_located((By.ID, "import-summary")))
    wait.until(lambda _: "imported" in summary.text)
    rows = driver.find_elements(By.CSS_SELECTOR, "#import-errors tbody tr")
    check("the mapped import lands its good row and reports the bad one by its line",
          summary.text.startswith("1 imported") and len(rows) == 1 and rows[0].text.startswith("3 "),
          summary.text + " | " + "|".join(row.text for row in rows))
    os.unlink(mapped.name)

    # keyboard-only: from the top of the staff page, the first Tab reaches "Skip to the page",
    # outlined; it lands in the page, and Tab alone reaches the new-user form, which is filled
    # and sent with keys alone.
    driver.get(URL + "/admin/staff")
    ActionChains(driver).send_keys(Keys.TAB).perform()
    check("keyboard-only: the first Tab reaches the skip link",
          driver.switch_to.active_element.get_attribute("id") == "skip-link",
          str(driver.switch_to.active_element.get_attribute("outerHTML"))[:120])
    outline = driver.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
    check("keyboard-only: the focused element is outlined", outline not in ("none", ""), outline)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    check("keyboard-only: the skip link lands in the page",
          driver.switch_to.active_element.get_attribute("id") == "main",
          str(driver.switch_to.active_element.get_attribute("id")))
    reached = False
    for _ in range(300):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        if driver.switch_to.active_element.get_attribute("id") == "user-name":
            reached = True
            break
    check("keyboard-only: Tab reaches the new user's name", reached)
    ActionChains(driver).send_keys("Kim Keyboard", Keys.TAB, "kim@acme.test", Keys.TAB, Keys.TAB,
                                   "kim-password-1", Keys.ENTER).perform()
    wait.until(ready.text_to_be_present_in_element((By.ID, "users"), "Kim Keyboard"))
    check("keyboard-only: the user was created with keys alone", "kim@acme.test" in driver.find_element(By.ID, "users").text)

    # A password link for Dora: mailed through the queue; the link's page sets her password.
    driver.get(URL + "/admin/staff")
    row = next(row for row in driver.find_elements(By.CSS_SELECTOR, "#users tbody tr") if "Dora Door" in row.text)
    follow(driver, wait, row.find_element(By.CSS_SELECTOR, "button.user-password-link"))
    check("a password link was mailed", "link to set a new password was mailed" in driver.find_element(By.ID, "notice").text)
    link = None
    deadline = time.time() + 30
    while link is None and time.time() < deadline:
        for name in os.listdir(os.path.join(MAILDIR, "new")):
            with open(os.path.join(MAILDIR, "new", name), encoding="utf-8", errors="replace") as message:
                text = message.read()
            if "To: dora@acme.test" in text and "/admin/password?token=" in text:
                link = next(line.strip() for line in text.splitlines() if "/admin/password?token=" in line)
        time.sleep(0.2)
    check("the link reached Dora's mailbox, on the server's public address", link is not None and link.startswith(URL), str(link))
    driver.get(link)
    driver.find_element(By.ID, "new-password").send_keys("dora's new password")
    driver.find_element(By.ID, "repeat-password").send_keys("dora's new password")
    follow(driver, wait, driver.find_element(By.ID, "set-password"))
    status, _ = api_call("POST", "/v1/auth/signin", body={"email": "dora@acme.test", "password": "dora's new password",
                                                           "deviceId": "dora-laptop"})
    check("the new password signs Dora in", status == 200, str(status))

    # Dora made the organizer of next year's gala, and of no other event: she edits that one,
    # works this year's as door staff, and the team stays the organizers'.
    driver.get(clone_url)
    row = next(item for item in driver.find_elements(By.CSS_SELECTOR, "#event-staff li") if "Dora Door" in item.text)
    follow(driver, wait, row.find_element(By.CSS_SELECTOR, "button.staff-organize"))
    check("Dora is made the clone's organizer from its staff list",
          "Dora Door · dora@acme.test · organizer of this event" in driver.find_element(By.ID, "event-staff").text,
          driver.find_element(By.ID, "event-staff").text)
    follow(driver, wait, driver.find_element(By.ID, "signout"))
    driver.find_element(By.ID, "email").send_keys("dora@acme.test")
    driver.find_element(By.ID, "password").send_keys("dora's new password")
    follow(driver, wait, driver.find_element(By.ID, "signin"))
    driver.get(clone_url)
    check("Dora edits the event she organizes, not its team",
          driver.find_elements(By.ID, "new-access-type") and not driver.find_elements(By.ID, "assign-staff"))
    accessible(driver, "event page, as the event's organizer")
    driver.find_element(By.ID, "access-type-name").send_keys("Crew")
    follow(driver, wait, driver.find_element(By.ID, "add-access-type"))
    check("and adds an access type to it", "Crew" in driver.find_element(By.ID, "access-types").text)
    driver.get(event_url)
    check("this year's gala stays hers to work, not to change",
          driver.find_element(By.ID, "event-title").text == "Winter Gala" and not driver.find_elements(By.ID, "new-access-type"),
          driver.find_element(By.ID, "event-title").text)
    follow(driver, wait, driver.find_element(By.ID, "signout"))
    driver.find_element(By.ID, "email").send_keys(EMAIL)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    follow(driver, wait, driver.find_element(By.ID, "signin"))
    driver.get(URL + "/admin/events")

    # Two-factor sign-in, pyotp as the authenticator app: turned on with the password and the
    # app's first code; then a wrong code, an expired one and a recovery code at sign-in.
    follow(driver, wait, driver.find_element(By.ID, "two-factor-nav"))
    driver.find_element(By.ID, "enroll-password").send_keys(PASSWORD)
    follow(driver, wait, driver.find_element(By.ID, "enroll"))
    app = pyotp.TOTP(driver.find_element(By.ID, "two-factor-secret").get_attribute("data-secret"))
    driver.find_element(By.ID, "confirm-code").send_keys(app.now())
    follow(driver, wait, driver.find_element(By.ID, "confirm-two-factor"))
    codes = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#recovery-codes code")]
    check("two-factor sign-in is on, with ten recovery codes shown once", len(codes) == 10, str(codes))
    follow(driver, wait, driver.find_element(By.ID, "signout"))

    def sign_in_with(code):
        driver.find_element(By.ID, "email").send_keys(EMAIL)
        driver.find_element(By.ID, "password").send_keys(PASSWORD)
        follow(driver, wait, driver.find_element(By.ID, "signin"))
        field = driver.find_element(By.ID, "code")
        field.send_keys(code)
        follow(driver, wait, driver.find_element(By.ID, "code-signin"))

    sign_in_with("000000")
    check("a wrong code is refused in words on the code's page",
          "The code is wrong" in driver.find_element(By.ID, "error").text and driver.find_elements(By.ID, "code"))
    accessible(driver, "sign-in code")
    check("axe-core finds no WCAG 2 A or AA violation on the sign-in code page", "sign-in code" not in AXE_FOUND,
          " | ".join(AXE_FOUND.get("sign-in code", [])))
    driver.get(URL + "/admin/signin")
    accessible(driver, "sign-in")
    check("axe-core finds no WCAG 2 A or AA violation on the sign-in page", "sign-in" not in AXE_FOUND,
          " | ".join(AXE_FOUND.get("sign-in", [])))
    sign_in_with(app.at(time.time() - 120))
    check("an expired code is refused", driver.find_elements(By.ID, "code") and not driver.find_elements(By.ID, "signout"))
    driver.get(URL + "/admin/signin")
    sign_in_with(codes[0])
    check("a recovery code signs in", driver.current_url.endswith("/admin/events"), driver.current_url)
    check("no dialog on the two-factor pages", no_dialog(driver))

    # The coordinator's pages: a peer mentor, a contact with a sealed phone, the mentor's visits
    # logged from their phone (the API, as the app sends them), the report filtered and its CSV.
    follow(driver, wait, driver.find_element(By.ID, "staff-nav"))
    driver.find_element(By.ID, "user-name").send_keys("Mia Mentor")
    driver.find_element(By.ID, "user-email").send_keys("mia@acme.test")
    Select(driver.find_element(By.ID, "user-role")).select_by_value("mentor")
    driver.find_element(By.ID, "user-password").send_keys("mentor-password")
    follow(driver, wait, driver.find_element(By.ID, "create-user"))
    follow(driver, wait, driver.find_element(By.ID, "mentoring-nav"))
    for name, area in ((HOSTILE + " Solberg", "Vardø"), ("Olav Berg", "Kiberg")):
        driver.find_element(By.ID, "contact-name").send_keys(name)
        driver.find_element(By.ID, "contact-area").send_keys(area)
        driver.find_element(By.ID, "contact-phone").send_keys("+47 915 55 012")
        follow(driver, wait, driver.find_element(By.ID, "add-contact"))
    for index in range(2):
        row = driver.find_elements(By.CSS_SELECTOR, "#contacts tbody tr")[index]
        Select(row.find_element(By.CSS_SELECTOR, "select.assign-mentor")).select_by_visible_text("Mia Mentor")
        follow(driver, wait, row.find_element(By.CSS_SELECTOR, "button.assign-mentor-button"))
    contacts_text = driver.find_element(By.ID, "contacts").text
    check("the contacts are listed with their mentor, the names as text, the phone sealed",
          HOSTILE + " Solberg" in contacts_text and contacts_text.count("Mia Mentor") == 2
          and "915 55" not in contacts_text, contacts_text)

    api = api_call

    _, signed = api("POST", "/v1/auth/signin", body={"email": "mia@acme.test", "password": "mentor-password",
                                                      "deviceId": "mia-phone"})
    mentor_token = json.loads(signed)["accessToken"]
    _, listed = api("GET", "/v1/contacts", token=mentor_token)
    contact_ids = {contact["name"]: contact["id"] for contact in json.loads(listed)["contacts"]}
    today = time.strftime("%Y-%m-%d", time.gmtime())
    for name, kind, minutes in ((HOSTILE + " Solberg", "visit", 45), ("Olav Berg", "call", 15)):
        status, answered = api("PUT", f"/v1/activities/{uuid.uuid4()}", token=mentor_token, body={
            "contactId": contact_ids[name], "type": kind, "date": today, "durationMinutes": minutes,
            "notes": "kept private", "baseVersion": 0})
        check(f"the mentor's {kind} is stored", status == 201, f"{status} {answered[:300]}")
    follow(driver, wait, driver.find_element(By.ID, "activities-link"))
    check("the report totals the mentors' activities",
          driver.find_element(By.ID, "activity-totals").text == "2 activities, 60 minutes",
          driver.find_element(By.ID, "activity-totals").text)
    Select(driver.find_element(By.ID, "activity-contact")).select_by_visible_text("Olav Berg")
    follow(driver, wait, driver.find_element(By.ID, "activity-show"))
    check("filtered by contact", driver.find_element(By.ID, "activity-totals").text == "1 activity, 15 minutes"
          and "kept private" not in driver.find_element(By.ID, "activities").text)
    if SHOTS:
        driver.save_screenshot(os.path.join(SHOTS, "console-activities.png"))
    href = driver.find_element(By.ID, "activities-csv").get_attribute("href")
    cookie = driver.get_cookie("outpost_console")
    with urllib.request.urlopen(urllib.request.Request(
            href, headers={"Cookie": f"outpost_console={cookie['value']}"})) as answer:
        report = answer.read().decode().split("\r\n")
    # Mia's phone reports after its sync; the Devices page names it.
    status, _ = api("PUT", "/v1/me/devices/mia-phone", token=mentor_token, body={"pending": 0})
    check("the mentor's phone reported", status == 204, str(status))
    follow(driver, wait, driver.find_element(By.ID, "devices-nav"))
    row = next(row for row in driver.find_elements(By.CSS_SELECTOR, "#devices tbody tr") if "mia-phone" in row.text)
    row.find_element(By.CSS_SELECTOR, "input.device-name").send_keys("Mia's phone")
    follow(driver, wait, row.find_element(By.CSS_SELECTOR, "button.device-name-save"))
    row = next(row for row in driver.find_elements(By.CSS_SELECTOR, "#devices tbody tr") if "mia-phone" in row.text)
    check("the device was named", row.find_element(By.CSS_SELECTOR, "input.device-name").get_attribute("value")
          == "Mia's phone")
    # A contact's page: the area edited, the mentor's reveal listed.
    driver.get(URL + "/admin/contacts")
    contact_url = driver.find_element(By.CSS_SELECTOR, "td.contact-name a").get_attribute("href")
    driver.get(contact_url)
    area = driver.find_element(By.ID, "contact-area")
    area.clear()
    area.send_keys("Ekkerøy")
    follow(driver, wait, driver.find_element(By.ID, "save-contact"))
    check("the contact's area was edited", driver.find_element(By.ID, "contact-area").get_attribute("value") == "Ekkerøy"
          and "was saved" in driver.find_element(By.ID, "notice").text)
    check("the funder's report downloads with the filter: one call, no names, no notes",
          report[0] == "Date,Activity,Minutes,Mentor,Contact,Area" and len([line for line in report if line]) == 2
          and report[1].startswith(today + ",call,15,Mia Mentor,") and report[1].endswith(",Kiberg"), str(report))

    # Accessibility: axe-core (WCAG 2.1 A and AA) on every page the organizer has, with the
    # hostile names shown on them.
    driver.get(event_url + "/guests")
    guest_url = driver.find_element(By.CSS_SELECTOR, "td.guest-name a").get_attribute("href")
    driver.get(event_url + "/ticket-blocks")
    block_url = driver.find_element(By.CSS_SELECTOR, "#ticket-blocks tbody a").get_attribute("href")
    driver.get(event_url + "/booths")
    booth_links = driver.find_elements(By.CSS_SELECTOR, "#booths tbody a")
    leads_url = booth_links[0].get_attribute("href") if booth_links else None
    pages = {
        "events": URL + "/admin/events", "event": event_url, "guests": event_url + "/guests", "guest": guest_url,
        "import": event_url + "/import", "audit": event_url + "/audit", "walk-ins": event_url + "/walkins",
        "badge": event_url + "/badge", "zones": event_url + "/zones", "pickup": event_url + "/pickup",
        "booths": event_url + "/booths", "ticket blocks": event_url + "/ticket-blocks", "block": block_url,
        "ticket mails": event_url + "/ticket-mails", "dashboard": event_url + "/dashboard",
        "dashboard tv": event_url + "/dashboard?tv=1", "staff": URL + "/admin/staff",
        "settings": URL + "/admin/settings", "two-factor": URL + "/admin/two-factor",
        "contacts": URL + "/admin/contacts", "activities": URL + "/admin/activities",
        "contact": contact_url, "devices": URL + "/admin/devices",
    }
    if leads_url:
        pages["leads"] = leads_url
    for page, address in pages.items():
        driver.get(address)
        accessible(driver, page)
        check(f"axe-core finds no WCAG 2 A or AA violation on the {page} page", page not in AXE_FOUND,
              " | ".join(AXE_FOUND.get(page, [])))

    # Sign out: the pages send the browser to sign in again.
    follow(driver, wait, driver.find_element(By.ID, "signout"))
    wait.until(ready.presence_of_element_located((By.ID, "signin")))
    driver.get(URL + "/admin/events")
    check("signed out", driver.current_url.endswith("/admin/signin"), driver.current_url)


def api_call(method, path, token=None, body=None):
    """One API request: its status and body."""
    request = urllib.request.Request(URL + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": "Bearer " + token} if token else {})})
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


if __name__ == "__main__":
    started = time.time()
    try:
        main()
    except Exception as error:  # a step that could not run at all is one failure, with its reason
        failed += 1
        where = next((f"line {frame.lineno} ({frame.line})" for frame in reversed(traceback.extract_tb(error.__traceback__))
                      if frame.filename == __file__), "?")
        print(f"console-e2e: FAILED at {where}: {type(error).__name__}: {error}")
    print(f"console-e2e: {time.time() - started:.1f} s")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
