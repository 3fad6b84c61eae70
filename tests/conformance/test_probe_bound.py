"""The probe cache keeps at most MAX_PROBES EALs alive, however many (channels, ranks) pairs the tests ask for
(issue 16: 33 probes once ran at once, 8.7 GB resident together)."""

from __future__ import annotations

from pathlib import Path

from .conftest import MAX_PROBES


def _alive(prefixes: set[str]) -> int:
    """Probe processes of this pytest still running (their EAL --file-prefix names them)."""
    count = 0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--file-prefix" in argv:
            prefix = argv[argv.index(b"--file-prefix") + 1].decode(errors="replace")
            count += prefix in prefixes
    return count


def test_at_most_max_probes_are_alive(probes):
    pairs = [(c, r) for c in (1, 2, 3) for r in (1, 2, 3)][: MAX_PROBES + 3]
    seen: set[str] = set()
    for pair in pairs:
        probe = probes[pair]
        assert probe.proc.poll() is None and probe.platform  # started: EAL answered with its platform
        seen.add(probe.file_prefix)
        assert _alive(seen) <= MAX_PROBES
    assert len(seen) == len(pairs) > MAX_PROBES
    # the default (4, 1), which tests hold for long, is never the one closed
    default = probes[(4, 1)]
    for pair in pairs:
        probes[pair]
    assert default.proc.poll() is None
    assert _alive(seen | {default.file_prefix}) <= MAX_PROBES
