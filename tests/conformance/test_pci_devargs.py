"""The PCI drivers' devargs parsing (:mod:`mpcalc.dpdk.drivers.pci_devargs`), held to DPDK's own source at each tag.

For every driver and release: the keys are what the cited valid-args arrays hold (or, for a function, the keys it
compares with ``strcmp`` or counts with ``rte_kvargs_count``), each macro resolved to its ``#define`` in the tag;
a driver that parses none has no ``rte_kvargs`` in its folder; each cited log line says what the table says and
each cited failure returns. This reads the tags from a DPDK git repository (``MPCALC_DPDK_GIT``, else
/work/.mirror/DPDK+dpdk/repo) and skips when there is none.
"""

from __future__ import annotations

import os
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

from mpcalc.dpdk.drivers import pci, pci_devargs
from mpcalc.dpdk.drivers.pci_devargs import DROP, IGNORE, NONE, REFUSE, WARN
from mpcalc.dpdk.drivers.pcibase import RELEASES, TAGS

GIT = Path(os.environ.get("MPCALC_DPDK_GIT", "/work/.mirror/DPDK+dpdk/repo"))
pytestmark = pytest.mark.skipif(not (GIT / "HEAD").exists(), reason=f"no DPDK git repository at {GIT}")

CASES = [(pmd, rel) for pmd in pci_devargs.KEYS for rel in RELEASES]
#: where a key's macro may be defined: the cited file's folder, mlx5's common folder, EAL's devargs header
HEADERS = ("drivers/common/mlx5", "lib/eal/include")


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(GIT), *args], capture_output=True, text=True, errors="replace").stdout


@cache
def lines(tag: str, path: str) -> tuple[str, ...]:
    return tuple(git("show", f"{tag}:{path}").splitlines())


def cites(text: str) -> list[tuple[str, str, int]]:
    """``tag:path:l1,l2; tag:path2:l3`` -> every (tag, path, line)."""
    out = []
    for one in text.split("; "):
        tag, path, nums = one.split(":")
        out += [(tag, path, int(n)) for n in nums.split(",")]
    return out


@cache
def string_macros(tag: str, folder: str) -> dict[str, set[str]]:
    """Every ``#define NAME "text"`` of a folder and the shared headers at a tag: NAME -> its texts."""
    out: dict[str, set[str]] = {}
    found = git("grep", "-h", "-E", r'^\s*#\s*define\s+\w+\s+"', tag, "--", folder, *HEADERS)
    for m in re.finditer(r'^\s*#\s*define\s+(\w+)\s+"([^"]*)"', found, flags=re.M):
        out.setdefault(m.group(1), set()).add(m.group(2))
    return out


def macro(tag: str, folder: str, name: str) -> str:
    if name.startswith('"'):
        return name.strip('"')
    values = string_macros(tag, folder).get(name, set())
    assert len(values) == 1, (tag, name, values)
    return next(iter(values))


def keys_at(tag: str, path: str, line: int) -> list[str]:
    """The names an array opening at ``line`` holds (to NULL), or a function defined there compares or counts."""
    text = lines(tag, path)
    names: list[str] = []
    if re.search(r"\[\] = \{|\(const char \*\[\]\)\{", text[line - 1]):
        for t in text[line:]:
            t = t.split("/*")[0].strip()
            if t.startswith(("}", "NULL")):
                break
            names += [x.strip() for x in t.split(",") if x.strip() and x.strip() != "NULL"]
    else:
        assert re.match(r"^\w+\(", text[line - 1]), text[line - 1]
        body = []
        for t in text[line - 1 :]:
            body.append(t)
            if t.startswith("}"):
                break
        names = [
            next(g for g in m.groups() if g)
            for m in re.finditer(
                r"strcmp\(\s*(\w+|\"[^\"]*\")\s*,\s*key\s*\)|strcmp\(\s*key\s*,\s*(\w+|\"[^\"]*\")\s*\)"
                r"|rte_kvargs_count\(\s*kvlist\s*,\s*(\w+)\s*\)",
                "\n".join(body),
            )
        ]
    return [macro(tag, path.rsplit("/", 1)[0], n) for n in names]


def said(tag: str, path: str, line: int) -> str:
    """The format string of the log call on ``line`` (its pieces joined, as the compiler joins them)."""
    src = " ".join(t.strip() for t in lines(tag, path)[line - 1 : line + 3]).split(");")[0]
    src = src.replace("PCI_PRI_FMT", '"%s"')  # EAL's address format, as the table writes it
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', src)).replace('\\"', '"').removesuffix("\\n")


def test_every_pci_driver_and_release_has_its_row():
    assert sorted(pci_devargs.KEYS) == sorted(pci_devargs.KEYS_AT) == sorted(pci_devargs.UNKNOWN) == sorted(pci.PMDS)
    assert all(sorted(rows) == sorted(RELEASES) for rows in pci_devargs.KEYS_AT.values())
    assert all(spans[0][0] == RELEASES[0] and spans[-1][1] == "" for spans in pci_devargs.UNKNOWN.values())
    assert sorted(pci_devargs.PROBE_FAILED) == sorted(RELEASES)


@pytest.mark.parametrize(("pmd", "rel"), CASES, ids=[f"{p}-{r}" for p, r in CASES])
def test_the_keys_are_what_the_source_parses(pmd, rel):
    d = pci_devargs.parsing(pmd, rel)
    assert all(tag == TAGS[rel] for tag, _, _ in cites(d.keys_at))
    if d.unknown == NONE:
        [(tag, path, line)] = cites(d.keys_at)
        assert re.match(rf"RTE_PMD_REGISTER_PCI\({pmd},", lines(tag, path)[line - 1])
        folder = pci.PMDS[pmd].SOURCE.dirs[rel]
        assert git("grep", "-l", "rte_kvargs", tag, "--", folder) == "", folder
        assert d.keys == ()
        return
    got = sorted({k for tag, path, line in cites(d.keys_at) for k in keys_at(tag, path, line)})
    assert list(d.keys) == got


@pytest.mark.parametrize(("pmd", "rel"), CASES, ids=[f"{p}-{r}" for p, r in CASES])
def test_what_it_does_with_a_key_it_does_not_know_is_what_the_source_does(pmd, rel):
    d = pci_devargs.parsing(pmd, rel)
    at = cites(d.said_at) if d.said_at else []
    for tag, path, line in at:
        assert tag == TAGS[rel]
        text = lines(tag, path)
        if d.unknown in (DROP, IGNORE):  # rte_kvargs_parse with its array (DROP: then no log) or with none
            assert "rte_kvargs_parse(" in text[line - 1]
            if d.unknown == IGNORE:
                assert "NULL)" in text[line - 1]
            else:
                after = "\n".join(text[line : line + 3])
                assert re.search(r"\breturn\b", after) and "LOG" not in after, after
                if not re.search(r"\breturn( 0)?;", after):  # an error returned: its callers go on (i40e)
                    head = r"^(?:[a-z_][\w ]*[ *])?(\w+)\([^;]*$"  # a definition's line, at column 0
                    fn = next(m.group(1) for t in reversed(text[:line]) if (m := re.match(head, t)))
                    calls = [t for t in text if re.search(rf"\b{fn}\(", t) and t[:1].isspace()]
                    assert calls and all(re.match(rf"^\s+{fn}\(.*", t) for t in calls), calls
        elif d.said:  # REFUSE or WARN with a log line
            assert said(tag, path, line) == d.said
        else:  # REFUSE without a log line: the parse's failure returns
            assert "return -EINVAL;" in text[line - 1] and "rte_kvargs_parse(" in text[line - 3]
    if d.unknown == REFUSE:
        [(tag, path, line)] = cites(d.fails_at)
        text = lines(tag, path)
        assert re.search(r"Failed to parse devargs|parse_dev_args\(|mlx5_kvargs_validate\(", text[line - 1])
        assert re.search(r"\breturn -|goto \w+;", "\n".join(text[line - 1 : line + 3]))
    assert d.unknown in (NONE, REFUSE, DROP, WARN, IGNORE)
    assert bool(at) == (d.unknown != NONE)
    assert (d.fills != "") == ("%s" in d.said)


@pytest.mark.parametrize(("pmd", "rel"), CASES, ids=[f"{p}-{r}" for p, r in CASES])
def test_the_keys_ethdev_reads_and_the_devargs_that_leave_the_device_are_where_cited(pmd, rel):
    d = pci_devargs.parsing(pmd, rel)
    if d.ethdev:
        (tag, path, line), (etag, epath, eline) = cites(d.ethdev_at)
        assert "rte_eth_devargs_parse(" in lines(tag, path)[line - 1]
        assert 'strcmp("representor", pair->key) == 0' in lines(etag, epath)[eline - 1]
        assert d.ethdev == ("representor",)
    for leave in d.leaves:
        [(tag, path, line)] = cites(leave.cite)
        text = lines(tag, path)
        if leave.unless:  # mlx5's class table: the names of its net class
            table = "\n".join(text[line - 1 : line + 10])
            assert "mlx5_classes[] = {" in text[line - 1]
            assert all(f'.name = "{n}", .drv_class = MLX5_CLASS_ETH' in table for n in leave.unless)
        else:  # the probe returns 1: the device is left to the next driver
            assert re.search(rf"if \(.*(vdpa == {leave.value}|_{leave.key}_selected\()", text[line - 1])
            assert text[line].strip() == "return 1;"


@pytest.mark.parametrize("rel", RELEASES)
def test_eal_says_a_device_its_driver_refused_cannot_be_used(rel):
    text, cite = pci_devargs.PROBE_FAILED[rel]
    [(tag, path, line)] = cites(cite)
    assert said(tag, path, line) == text
