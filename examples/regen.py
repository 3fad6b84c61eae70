"""Write examples/<n>-<command>.txt: each command of commands.txt with its real output.

Run ``.venv/bin/python examples/regen.py`` (any Python with mpcalc's dependencies: the repository's own
mpcalc is used); tests/test_examples.py fails when an example is stale.  Tables are drawn as a pipe
with ``COLUMNS=80`` gets them, so the examples read at 80 columns wherever they are regenerated.
"""

from __future__ import annotations

import contextlib
import io
import shlex
import sys
from pathlib import Path

HERE = Path(__file__).parent
#: the width every example is drawn at
COLUMNS = "80"


def run(args: list[str]) -> tuple[int, str]:
    import os

    from mpcalc.cli import main

    out = io.StringIO()
    saved = {k: os.environ.get(k) for k in ("COLUMNS", "NO_COLOR")}
    os.environ["COLUMNS"] = COLUMNS
    os.environ.pop("NO_COLOR", None)
    try:
        with contextlib.redirect_stdout(out):
            rc = main(args)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return rc, out.getvalue()


def examples() -> list[tuple[Path, list[str]]]:
    lines = [ln for ln in (HERE / "commands.txt").read_text().splitlines() if ln.strip()]
    return [(HERE / f"{i:02d}-{shlex.split(ln)[0]}.txt", shlex.split(ln)) for i, ln in enumerate(lines, 1)]


#: the pictures the README shows: (file under examples/images, the command that draws it with --plot)
PICTURES = [
    ("sweep-pool.svg", ["sweep", "pool", "--elt-size", "40", "--vary", "count=1K..100K", "--steps", "400", "--log"]),
    ("plan-l3fwd-router.svg", ["plan", "examples/plans/l3fwd-router.toml"]),
    ("pool-flags.svg", ["pool", "-n", "8191", "--elt-size", "40", "--flags", "all"]),
]


def pictures() -> None:
    """Draw the README's pictures (needs matplotlib: the test extra has it)."""
    (HERE / "images").mkdir(exist_ok=True)
    for name, args in PICTURES:
        rc, _ = run([*args, "--plot", str(HERE / "images" / name)])
        assert rc == 0, (name, rc)
        print(f"images/{name}", file=sys.stderr)


def render(args: list[str]) -> str:
    rc, out = run(args)
    return f"$ mpcalc {shlex.join(args)}\n{out}(exit code {rc})\n"


if __name__ == "__main__":
    import os

    sys.path.insert(0, str(HERE.parent))  # this repository's mpcalc, installed or not
    os.chdir(HERE.parent)  # commands name files relative to the repository
    for path, args in examples():
        path.write_text(render(args))
        print(path.name, file=sys.stderr)
    pictures()
