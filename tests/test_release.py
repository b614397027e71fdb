"""Release hygiene: one version everywhere, ``splendor --version``, the changelog."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import pytest
import splendor
from splendor import _core, cli

ROOT = Path(__file__).resolve().parents[1]


def cargo_version() -> str:
    """The ``version`` of Cargo.toml's ``[package]`` table (the one place it is stated)."""
    text = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    package = re.search(r"^\[package\]\n(.*?)(?:^\[|\Z)", text, re.M | re.S)
    assert package is not None, "Cargo.toml has no [package] table"
    version = re.search(r'^version\s*=\s*"([^"]+)"', package.group(1), re.M)
    assert version is not None, "Cargo.toml's [package] has no version"
    return version.group(1)


def test_one_version_everywhere() -> None:
    version = cargo_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), (
        f"Cargo.toml version {version!r}: a pre-release would need its PEP 440 spelling"
        " compared here (maturin writes 1.0.0-alpha.1 as 1.0.0a1)"
    )
    assert splendor.__version__ == version
    assert _core.__version__ == version
    assert _core.build_info()["version"] == version
    assert importlib.metadata.version("splendor") == version, (
        "the installed metadata is stale: reinstall (maturin develop --release)"
    )


def test_pyproject_reads_the_version_from_cargo() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project = text.split("[project]", 1)[1].split("\n[", 1)[0]
    assert re.search(r'^dynamic\s*=\s*\[[^\]]*"version"', project, re.M)
    assert not re.search(r"^version\s*=", project, re.M), "a second version in pyproject.toml"


def test_build_info() -> None:
    info = _core.build_info()
    assert set(info) == {
        "version",
        "rustc",
        "target",
        "profile",
        "features",
        "target_features",
        "kernels",
    }
    assert all(isinstance(v, str) for v in info.values())
    assert re.match(r"rustc \d+\.\d+\.\d+", info["rustc"]), info["rustc"]
    assert re.fullmatch(r"[a-z0-9_]+(-[a-z0-9_.]+){2,3}", info["target"]), info["target"]
    assert info["profile"] in {"release", "debug"}
    assert "python" in info["features"].split(",")
    assert info["kernels"] in {"avx2+fma", "portable"}
    if info["target"].startswith("x86_64"):
        # The baseline every x86_64 build has; AVX2 + FMA are picked at run time.
        assert "sse2" in info["target_features"].split(",")


VERSION_LINES = [
    r"splendor \d+\.\d+\.\d+\S*",
    r"built with rustc \d+\.\d+\.\d+.* for \S+ \((release|debug) profile\)",
    r"cargo features: \S+",
    r"CPU features: compiled for \S+; network kernels: (avx2\+fma|portable)",
    r"running on \w+ \d+\.\d+\.\d+\S*, NumPy \S+",
]


def check_version_output(out: str) -> None:
    lines = out.splitlines()
    assert len(lines) == len(VERSION_LINES), out
    for line, pattern in zip(lines, VERSION_LINES, strict=True):
        assert re.fullmatch(pattern, line), (line, pattern)
    assert lines[0] == f"splendor {splendor.__version__}"
    info = _core.build_info()
    assert info["rustc"] in lines[1] and info["target"] in lines[1]


def test_version_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0
    captured = capsys.readouterr()
    check_version_output(captured.out)
    assert captured.err == ""


def test_version_option_in_a_new_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "splendor.cli", "--version"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    check_version_output(done.stdout)


def test_version_is_listed_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    assert "--version" in capsys.readouterr().out


def test_changelog_has_this_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    headings = re.findall(r"^## \[([^\]]+)\]", text, re.M)
    assert headings[0] == "Unreleased", headings
    # Every release heading is "## [X.Y.Z] - YYYY-MM-DD", newest first.
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", text, re.M)
    assert [v for v, _ in releases] == headings[1:], headings
    assert cargo_version() in headings, (
        f"CHANGELOG.md has no section for {cargo_version()}: move Unreleased under it"
    )
    versions = [tuple(int(p) for p in v.split(".")) for v, _ in releases]
    assert versions == sorted(versions, reverse=True)
    # Only Keep a Changelog's kinds of change.
    kinds = set(re.findall(r"^### (.+)$", text, re.M))
    assert kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, kinds
