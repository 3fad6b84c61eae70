"""The documentation, README.md and docs/: the site mkdocs builds from docs/ in strict mode, every relative link,
and every example a command with its real output."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from conftest import ROOT, doc_blocks, doc_links

DOCS = ROOT / "docs"
_spec = importlib.util.spec_from_file_location("regen", ROOT / "examples" / "regen.py")
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)


def mkdocs_build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )


def test_the_site_builds_in_strict_mode_with_every_page(tmp_path):
    """``mkdocs build --strict``: no broken link between pages (anchors included), and every page of docs/ in the
    site, with no list of pages to keep (mkdocs.yml has no nav)."""
    res = mkdocs_build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert res.returncode == 0, res.stderr
    assert not re.search(r"^nav:", (ROOT / "mkdocs.yml").read_text(), re.M)
    for page in DOCS.glob("*.md"):
        built = tmp_path / "site" / ("index.html" if page.stem == "index" else f"{page.stem}/index.html")
        assert built.exists(), f"{page.name} is not in the site"
    # the repository's files the pages link to are in the site too (scripts/mkdocs_hooks.py)
    assert (tmp_path / "site" / "repo" / "ARCHITECTURE.md").exists()
    assert (tmp_path / "site" / "repo" / "examples" / "images" / "sweep-pool.svg").exists()


@pytest.mark.parametrize(
    "link",
    [
        "[a page that is not there](nowhere.md)",
        "[an anchor that is not there](units.md#no-such-heading)",
        "[a file of the repository that is not there](../NOWHERE.md)",
        "[outside the repository](../../etc/hosts)",
    ],
)
def test_the_strict_build_fails_on_a_broken_link(tmp_path, link):
    shutil.copytree(DOCS, tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path)
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "mkdocs_hooks.py", tmp_path / "scripts")
    for name in ("README.md", "ARCHITECTURE.md"):
        shutil.copy(ROOT / name, tmp_path)
    shutil.copytree(ROOT / "examples" / "images", tmp_path / "examples" / "images")
    assert mkdocs_build(tmp_path / "mkdocs.yml", tmp_path / "site").returncode == 0  # the copy builds
    with (tmp_path / "docs" / "units.md").open("a") as f:
        f.write(f"\nSee {link}.\n")
    res = mkdocs_build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert res.returncode != 0 and "WARNING" in res.stderr, res.stderr


def _slugs(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings (lower case, punctuation dropped, a space a hyphen); mkdocs
    checks the anchors between pages of docs/ itself."""
    text = re.sub(r"^```.*?^```", "", page.read_text(), flags=re.M | re.S)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in re.findall(r"^#+ (.+)$", text, re.M)}


def test_every_relative_link_names_a_file_of_the_repository():
    """README.md's links into docs/ and docs/'s to ARCHITECTURE.md, examples/ ...: each a relative path (as GitHub
    resolves it) to a file that exists, and an anchor into a Markdown file to one of its headings."""
    bad = []
    for page, target, file, anchor in doc_links():
        where = f"{page.relative_to(ROOT)}: ({target})"
        if file is None:
            bad.append(f"{where} names no file of the repository")
        elif anchor and file.suffix == ".md" and anchor not in _slugs(file):
            bad.append(f"{where}: {file.name} has no heading #{anchor}")
    assert not bad, "\n".join(bad)


def test_every_page_is_linked_from_the_readme_or_the_index():
    linked = {file for page, _, file, _ in doc_links() if page.name in ("README.md", "index.md")}
    assert DOCS / "index.md" in linked
    assert not [page.name for page in DOCS.glob("*.md") if page not in linked and page.name != "index.md"]


def _examples() -> dict[str, Path]:
    """examples/commands.txt: each command line (normalised) and the file that records its output."""
    return {shlex.join(args): path for path, args in regen.examples()}


class Shown(NamedTuple):
    """One ``$ mpcalc ...`` of a console block and what the page shows of its output."""

    page: str
    args: list[str]  # mpcalc's arguments
    jq: list[str]  # the jq filter the page shows the --json document through (``| jq ...``, ``# through jq ...``)
    grep: str  # the pattern of a ``| grep -E PATTERN`` the page shows the output through, or ""
    setup: str  # a shell command of the same block that makes the files it reads (in an empty folder), or ""
    lines: list[str]  # what the page shows after the command


def _command(lines: list[str]) -> tuple[list[str], int]:
    """The words of the shell command the lines begin with (a quote may span lines), and how many lines it takes."""
    for n in range(1, len(lines) + 1):
        try:
            return shlex.split("\n".join(lines[:n])), n
        except ValueError:  # no closing quotation yet
            continue
    raise AssertionError(f"an unfinished command: {lines[0]}")


def _shown() -> list[Shown]:
    """Every ``$ mpcalc ...`` (or ``$ .venv/bin/mpcalc ...``) of the console blocks of README.md and docs/, its
    output shown as mpcalc prints it or through jq; a ``$ .venv/bin/python ... > FILE`` before it in its block is
    the set-up that makes the files it reads. Another program's command line is shown, never run."""
    out = []
    blocks = doc_blocks("console") + [(p, b) for p, b in doc_blocks("") if b.startswith("$ mpcalc ")]
    for page, block in blocks:
        setup = ""
        for part in re.split(r"^(?=\$ )", block, flags=re.M):
            lines = part.splitlines()
            if not lines or not lines[0].startswith("$ "):
                continue
            words, n = _command([lines[0][2:], *lines[1:]])
            if words[0] == ".venv/bin/python" and ">" in words:
                setup = lines[0][2:]  # a generator of the files the next commands read (the full table's)
                continue
            if words[0] not in ("mpcalc", ".venv/bin/mpcalc"):
                continue  # another program's command line: shown, not run
            args, jq_args, rest = words[1:], [], lines[n:]
            grep = ""
            if "|" in args:
                pipe, args = args[args.index("|") + 1 :], args[: args.index("|")]
                if pipe[:2] == ["grep", "-E"] and len(pipe) == 3:
                    grep = pipe[2]  # the lines of the output that match
                elif pipe[0] == "jq":
                    jq_args = pipe[1:]
                else:
                    continue  # through another program (head, ...): not mpcalc's output as it prints it
            comment = [
                ln
                for ln in rest
                if ln.startswith("# through jq") or (ln.startswith("#   ") and rest[0].startswith("# through"))
            ]
            if comment:
                jq_args = shlex.split(" ".join(ln[1:].strip() for ln in comment))[2:]  # through jq [-c] FILTER
                rest = rest[len(comment) :]
            if rest and rest[0].startswith("mpcalc: error: "):
                continue  # a refusal, on stderr: tests/test_cli.py holds it to its line and exit code
            out.append(Shown(page.name, args, jq_args, grep, setup, rest))
    return out


SHOWN = _shown()


@pytest.fixture(scope="module")
def set_up(tmp_path_factory):
    """The folder each set-up command ran in (once each)."""
    made: dict[str, Path] = {}

    def folder(command: str) -> Path:
        if command not in made:
            made[command] = tmp_path_factory.mktemp("setup")
            env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the repository's tests.conformance, say
            line = command.replace(".venv/bin/python", shlex.quote(sys.executable))
            subprocess.run(["bash", "-c", line], cwd=made[command], env=env, check=True, timeout=600)
        return made[command]

    return folder


@pytest.mark.parametrize("shown", SHOWN, ids=[f"{s.page}: {shlex.join(s.args)}"[:90] for s in SHOWN])
def test_every_example_shown_is_real_output(shown, set_up, monkeypatch):
    """What a page shows after ``$ mpcalc ...`` is what the command prints at 80 columns (examples/regen.py), line
    for line, in order (``...`` stands for lines left out); a JSON document shown through jq is the command's
    ``--json`` through that filter (jq's Python binding, the test extra), and ``| grep -E`` keeps the lines that
    match. A command of examples/commands.txt is held
    to its recorded file (which tests/test_examples.py holds to the command); any other is run."""
    import jq

    recorded = None if shown.setup else _examples().get(shlex.join(shown.args))
    if recorded is not None:
        output = recorded.read_text()
    else:
        monkeypatch.chdir(set_up(shown.setup) if shown.setup else ROOT)  # file names are relative to it
        output = regen.render(shown.args)
    if shown.jq:
        *options, program = shown.jq
        assert set(options) <= {"-c"}, options
        doc = json.loads(output[output.index("\n") + 1 : output.rindex("(exit code")])
        answers = jq.compile(program).input_value(doc).all()
        output = "".join(
            (json.dumps(a, separators=(",", ":")) if options else json.dumps(a, indent=2)) + "\n" for a in answers
        )
    real = output.splitlines()
    if shown.grep:
        real = [line for line in real if re.search(shown.grep, line)]
    at = 0
    for line in shown.lines:
        if line.strip() == "...":
            continue
        while at < len(real) and real[at] != line:
            at += 1
        assert at < len(real), (
            f"{shown.page}: not in what mpcalc {shlex.join(shown.args)} prints, or out of order:\n{line}"
        )
        at += 1
