"""``mpcalc batch --jobs N`` on a FILE: N processes that each answer every N-th piece of the file and write
their answers straight to the output, in the file's order.

The parent cuts the file at newlines into pieces of about :data:`PIECE` bytes (one scan of the file,
no line held), forks N - 1 workers and answers its own share as worker 0.  A token goes round a ring of
pipes: a worker writes piece i's answers only once piece i - 1's are written, then passes the token on.
No answer crosses a process boundary (the output is one file descriptor shared by all), so the parent
does no copying and N processes work N times as fast while there are N idle CPUs.

A worker that dies closes its end of the ring, and the next one reads an end of file instead of the
token: every worker then stops, and the parent raises.  A reader that goes away (``| head``) makes every
worker stop the same way, and the parent raises BrokenPipeError as a single process would.
"""

import os
import select
from collections import deque
from collections.abc import Iterator
from typing import IO, Any, cast

from mpcalc.dpdk.core.errors import STDOUT, OutputError, os_reason
from mpcalc.dpdk.core.limits import MAX_LINE_BYTES
from mpcalc.service.batch import Answerer, run_batch
from mpcalc.service.exitcodes import ExitCode
from mpcalc.stream import Progress, split_chunks

PIECE = 1 << 18  #: bytes of the file a worker answers at a time
AHEAD = 4  #: pieces a worker answers ahead of its turn to write
_SCAN = 1 << 22
#: a worker's exit status when the output was closed under it, when it failed, when another one stopped
_BROKEN_PIPE, _FAILED, _STOPPED, _OUTPUT_FAILED = 100, 101, 102, 103


def pieces(fd: int, size: int, piece: int = PIECE) -> Iterator[tuple[int, int, int]]:
    """(start, end, number of the first line) of consecutive pieces of a file, each cut after a newline
    at least ``piece`` bytes past its start (the last one ends at ``size``)."""
    start, number, pos = 0, 1, 0
    lines_before = 0  # newlines in [start, pos)
    cut = piece
    while pos < size:
        block = os.pread(fd, min(_SCAN, size - pos), pos)
        if not block:
            break
        offset = 0
        while pos + len(block) > cut:
            at = block.find(b"\n", max(cut - pos, offset))
            if at < 0:
                break
            end = pos + at + 1
            lines_before += block.count(b"\n", offset, at + 1)
            yield start, end, number
            number += lines_before
            start, lines_before, offset = end, 0, at + 1
            cut = end + piece
        lines_before += block.count(b"\n", offset)
        pos += len(block)
    if start < size:
        yield start, size, number


class _Range:
    """A file's bytes [start, end) as a stream for :func:`~mpcalc.stream.split_chunks`."""

    def __init__(self, fd: int, start: int, end: int) -> None:
        self.fd, self.pos, self.end = fd, start, end

    def read1(self, n: int) -> bytes:
        data = os.pread(self.fd, min(n, self.end - self.pos), self.pos) if self.pos < self.end else b""
        self.pos += len(data)
        return data


def _write_all(fd: int, text: str) -> None:
    """All of ``text`` on the output; one that cannot take it (full, an I/O error) is an OutputError."""
    data = memoryview(text.encode())
    try:
        while data:
            data = data[os.write(fd, data) :]
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(STDOUT, os_reason(exc)) from None


class _Writer:
    """Worker ``k``'s side of the token ring: the answers of its pieces, written in the file's order.

    A piece's answers wait (at most :data:`AHEAD` pieces) while the worker goes on to its next piece: the
    token is looked for without waiting after each piece, and waited for only when that many are pending,
    so one worker's stall does not stop the others."""

    def __init__(self, k: int, n: int, total: int, out: int, ring: list[tuple[int, int]]) -> None:
        self.k, self.n, self.total, self.out = k, n, total, out
        self.token_in, self.token_out = ring[k][0], ring[(k + 1) % n][1]
        os.set_blocking(self.token_in, False)
        self.pending: deque[tuple[int, str, int]] = deque()  # (piece, answers, last line)
        self.progress = Progress("batch")

    def add(self, piece: int, text: str, last: int) -> None:
        self.pending.append((piece, text, last))
        self.flush(wait=len(self.pending) > AHEAD)

    def flush(self, wait: bool) -> None:
        """Write the pending pieces whose turn has come; with ``wait``, until none is left."""
        while self.pending:
            piece, text, last = self.pending[0]
            if piece and not self._token(wait):
                return
            _write_all(self.out, text)
            self.progress.update(last)
            self.pending.popleft()
            if piece + 1 < self.total:
                try:
                    os.write(self.token_out, b"t")
                except BrokenPipeError:  # the next worker is gone: not the output's reader
                    raise _Stopped from None

    def _token(self, wait: bool) -> bool:
        if wait:
            select.select([self.token_in], [], [])
        try:
            got = os.read(self.token_in, 1)
        except BlockingIOError:
            return False
        if got != b"t":  # the end of the pipe: the worker before this one stopped
            raise _Stopped
        return True


def _answer(
    k: int,
    n: int,
    total: int,
    share: list[tuple[int, int, int]],
    fd: int,
    out: int,
    ring: list[tuple[int, int]],
    compact: bool,
    freeze: bool,
) -> int:
    """Worker ``k`` of ``n``: answer its pieces (:class:`_Writer` writes them in order); its worst exit code."""
    import gc

    answerer = Answerer(compact)
    writer = _Writer(k, n, total, out, ring)
    worst = ExitCode.OK
    for i, (start, end, number) in enumerate(share):
        parts, last = [], number
        for first, lines in split_chunks(cast(IO[bytes], _Range(fd, start, end)), MAX_LINE_BYTES):
            text, code = answerer.chunk(number + first - 1, lines)
            parts.append(text)
            worst = max(worst, ExitCode(code))
            last = number + first + len(lines) - 2
        if freeze:
            gc.freeze()
        writer.add(k + i * n, "".join(parts), last)  # k + i * n: its place in the file
    writer.flush(wait=True)
    writer.progress.close()
    return worst


def answer(source: IO[bytes], out: IO[str], compact: bool, *, jobs: int = 1, freeze: bool = False) -> int:
    """``mpcalc batch``: ``jobs`` > 1 answers a regular file in that many processes writing to ``out``'s file
    descriptor in order (:func:`run_parallel`); a pipe, or an output without a file descriptor, is answered by
    this process (:func:`mpcalc.service.batch.run_batch`)."""
    if jobs > 1 and _seekable(source) and _has_fd(out):
        return run_parallel(source, out, compact, jobs, freeze)
    return run_batch(source, out, compact, freeze=freeze)


def _has_fd(stream: IO[Any]) -> bool:
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return False
    return True


def _seekable(source: IO[bytes]) -> bool:
    """A regular file, read from its start: what the workers can each read a piece of."""
    import os
    import stat

    return _has_fd(source) and stat.S_ISREG(os.fstat(source.fileno()).st_mode) and source.tell() == 0


def run_parallel(source: IO[bytes], out: IO[str], compact: bool, jobs: int, freeze: bool) -> int:
    """Answer the regular file ``source`` on ``out`` (which has a file descriptor) in ``jobs`` processes."""
    out.flush()
    fd, out_fd = source.fileno(), out.fileno()
    share = list(pieces(fd, os.fstat(fd).st_size))
    jobs = max(1, min(jobs, len(share)))
    ring = [os.pipe() for _ in range(jobs)]
    children = []
    for k in range(1, jobs):
        pid = os.fork()
        if pid == 0:  # the worker: it never returns
            status = _FAILED
            try:
                _keep(ring, k, jobs)
                status = _answer(k, jobs, len(share), share[k::jobs], fd, out_fd, ring, compact, freeze)
            except BrokenPipeError:
                status = _BROKEN_PIPE
            except OutputError:  # the parent says it, once
                status = _OUTPUT_FAILED
            except (_Stopped, KeyboardInterrupt):  # Ctrl-C reaches every worker: the parent says it, once
                status = _STOPPED
            except BaseException:  # said on stderr; the parent raises
                import traceback

                traceback.print_exc()
            finally:
                os._exit(status)
        children.append(pid)
    _keep(ring, 0, jobs)
    worst: int = _STOPPED
    try:
        worst = _answer(0, jobs, len(share), share[0::jobs], fd, out_fd, ring, compact, freeze)
    except _Stopped:
        pass
    finally:
        os.close(ring[0][0])
        os.close(ring[1 % jobs][1])
        statuses = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in children]
    if _BROKEN_PIPE in statuses:
        raise BrokenPipeError
    if _OUTPUT_FAILED in statuses:
        raise OutputError(STDOUT, "a batch worker could not write to it")
    if not {worst, *statuses} <= {int(code) for code in ExitCode}:
        raise ChildProcessError(f"a batch worker failed (exit statuses {statuses})")
    return max([worst, *statuses])


class _Stopped(Exception):
    """The token did not come: the worker before this one stopped."""


def _keep(ring: list[tuple[int, int]], k: int, n: int) -> None:
    """Close every end of the ring but worker ``k``'s: its token's read end and its successor's write end."""
    for j, (r, w) in enumerate(ring):
        if j != k:
            os.close(r)
        if j != (k + 1) % n:
            os.close(w)
