"""The ``mpcalc`` command (and ``python -m mpcalc``).

A command is a short-lived process, so start-up is most of its time.  The cyclic garbage collector
is paused while the modules load: the collections it would run there (a full one among them) cost
about 3 ms of a 55 ms start on a slow machine and find almost nothing, since nothing has been freed
yet.  The objects loaded by then are frozen (``gc.freeze``), so the collections that a long batch
or sweep still runs never scan them.
"""

import gc
import sys


def run() -> None:
    gc.disable()
    try:
        from mpcalc.cli import main
    finally:
        gc.freeze()
        gc.enable()
    sys.exit(main())


if __name__ == "__main__":
    run()
