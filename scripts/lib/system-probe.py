#!/usr/bin/env python3
"""Writes the system-header probe: a Swift package that imports every system library the build
includes a header of, and nothing else.

Usage: system-probe.py PROJECT DIR

The probe has one `.systemLibrary` target for each `.systemLibrary` of PROJECT's Package.swift
(its module map and shim copied from PROJECT/Sources/NAME, its pkg-config name kept), plus the one
system library a dependency brings (GRDB's GRDBSQLite: SQLite's header), and an executable that
imports them all. `swift build` of it makes clang build every one of those modules, that is parse
each system header with everything it includes, and link every library the module maps name:
exactly the part of the project's build that needs the Debian -dev packages, in seconds and
without the rest of the build. scripts/fresh-machine-check builds it on a machine whose -dev
packages were purged: it must fail there, and pass once the README's first command has installed
what it needs.
"""

import pathlib
import re
import shutil
import sys

# The system libraries of dependencies: (package checkout, target).
DEPENDENCY_SYSTEM_LIBRARIES = [("GRDB.swift", "GRDBSQLite")]


def project_system_libraries(manifest):
    """(name, pkgConfig or None) for each `.systemLibrary(...)` of a Package.swift."""
    libraries = []
    for call in re.finditer(r"\.systemLibrary\((.*?)\)\s*[,\]]", manifest, re.S):
        arguments = call.group(1)
        name = re.search(r'name:\s*"([^"]+)"', arguments)
        pkg_config = re.search(r'pkgConfig:\s*"([^"]+)"', arguments)
        if name:
            libraries.append((name.group(1), pkg_config.group(1) if pkg_config else None))
    return libraries


def main(project, directory):
    project, directory = pathlib.Path(project), pathlib.Path(directory)
    manifest = (project / "Package.swift").read_text()
    libraries = [(name, pkg, project / "Sources" / name) for name, pkg in project_system_libraries(manifest)]
    if len(libraries) < 1:
        sys.exit("system-probe: found no .systemLibrary in Package.swift")
    for checkout, name in DEPENDENCY_SYSTEM_LIBRARIES:
        source = project / ".build" / "checkouts" / checkout / "Sources" / name
        if not source.is_dir():
            sys.exit(f"system-probe: {source} is missing (resolve the package first)")
        libraries.append((name, None, source))
    if directory.exists():
        shutil.rmtree(directory)
    (directory / "probe").mkdir(parents=True)
    targets = []
    for name, pkg_config, source in libraries:
        shutil.copytree(source, directory / name)
        pkg = f', pkgConfig: "{pkg_config}"' if pkg_config else ""
        targets.append(f'        .systemLibrary(name: "{name}", path: "{name}"{pkg}),')
    names = ", ".join(f'"{name}"' for name, _, _ in libraries)
    plain = ", ".join(name for name, _, _ in libraries)
    (directory / "Package.swift").write_text(
        "// swift-tools-version:6.1\n"
        "// Written by scripts/lib/system-probe.py: every system library Outpost's build includes.\n"
        "import PackageDescription\n\n"
        'let package = Package(\n    name: "outpost-system-probe",\n    targets: [\n'
        + "\n".join(targets)
        + f'\n        .executableTarget(name: "probe", dependencies: [{names}], path: "probe"),\n    ]\n)\n'
    )
    imports = "".join(f"import {name}\n" for name, _, _ in libraries)
    (directory / "probe" / "main.swift").write_text(
        imports + f'print("system-probe: {len(libraries)} system libraries compiled and linked: {plain}")\n'
    )
    print(" ".join(name for name, _, _ in libraries))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: system-probe.py PROJECT DIR")
    main(sys.argv[1], sys.argv[2])
