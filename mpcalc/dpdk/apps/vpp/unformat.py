"""The part of vppinfra's ``unformat`` a startup.conf is read with: a cursor over the text, literal keywords
(whole words: ``foo`` does not match ``food``), ``%u``, ``%s``/``%v`` (a word, or the inside of a ``{...}``
group), memory sizes (``unformat_memory_size``), page sizes (``unformat_log2_page_size``) and PCI addresses.

src/vppinfra/unformat.c (va_unformat, unformat_string), src/vppinfra/std-formats.c.  Pure: stdlib only.
"""

from __future__ import annotations

import re

_WS = " \t\n\r"
#: format_unformat_error shows at most this much of what is left (src/vppinfra/unformat.c)
ERROR_MAX = 30


class Cursor:
    """An ``unformat_input_t``: the text and the index of what is left."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def skip_ws(self) -> None:
        while self.i < len(self.text) and self.text[self.i] in _WS:
            self.i += 1

    @property
    def at_end(self) -> bool:
        """``unformat_check_input (input) == UNFORMAT_END_OF_INPUT`` (it skips white space first)."""
        self.skip_ws()
        return self.i >= len(self.text)

    def _word_end(self, j: int) -> bool:
        return j >= len(self.text) or self.text[j] in _WS

    def literal(self, *words: str) -> bool:
        """The keyword(s), each followed by white space or the end (va_unformat's check that ``foo`` does not
        match ``food``); the cursor moves only on a match."""
        save = self.i
        for w in words:
            self.skip_ws()
            if not self.text.startswith(w, self.i) or not self._word_end(self.i + len(w)):
                self.i = save
                return False
            self.i += len(w)
        return True

    def prefix(self, word: str) -> bool:
        """A literal before a directive (``buffers-per-numa %u``): no word-end check."""
        save = self.i
        self.skip_ws()
        if self.text.startswith(word, self.i):
            self.i += len(word)
            return True
        self.i = save
        return False

    def uint(self) -> int | None:
        """``%u``: decimal digits."""
        self.skip_ws()
        m = re.compile(r"\d+").match(self.text, self.i)
        if not m:
            return None
        self.i = m.end()
        return int(m.group())

    def string(self) -> str | None:
        """``%s`` / ``%v`` (unformat_string): the inside of a ``{...}`` group when it starts with ``{``, else the
        characters up to white space; a backslash escapes the next character."""
        self.skip_ws()
        if self.i >= len(self.text):
            return None
        out: list[str] = []
        paren = 0
        delimited = False
        backslash = False
        t = self.text
        while self.i < len(t):
            c = t[self.i]
            self.i += 1
            add = True
            if backslash:
                backslash = False
            elif c == "\\":
                backslash = True
                add = False
            elif c == "{":
                if paren == 0 and not out:
                    delimited = True
                    add = False
                paren += 1
            elif c == "}":
                paren -= 1
                if delimited and paren == 0:
                    break
            elif c in _WS and not delimited:
                self.i -= 1
                break
            if add:
                out.append(c)
        return "".join(out)

    def sub_input(self) -> str | None:
        """``unformat_vlib_cli_sub_input``: a ``{...}`` group's inside (src/vlib/cli.c)."""
        save = self.i
        self.skip_ws()
        if self.i < len(self.text) and self.text[self.i] == "{":
            return self.string()
        self.i = save
        return None

    def memory_size(self) -> int | None:
        """``unformat_memory_size``: a number and an optional k/m/g (either case) right after it."""
        save = self.i
        self.skip_ws()
        m = re.compile(r"-?\d+").match(self.text, self.i)
        if not m:
            self.i = save
            return None
        self.i = m.end()
        shift = 0
        if self.i < len(self.text) and self.text[self.i] in "kKmMgG":
            shift = {"k": 10, "m": 20, "g": 30}[self.text[self.i].lower()]
            self.i += 1
        return int(m.group()) << shift

    def page_size(self) -> int | str | None:
        """``unformat_log2_page_size``: ``default-hugepage``, ``default``, or ``<n>k|m|g``: 1 << log2, or the
        names ``"default-hugepage"``/``"default"``."""
        if self.prefix("default-hugepage"):
            return "default-hugepage"
        if self.prefix("default"):
            return "default"
        save = self.i
        self.skip_ws()
        m = re.compile(r"(\d+)\s*([kKmMgG])").match(self.text, self.i)
        if not m or int(m.group(1)) == 0:
            self.i = save
            return None
        self.i = m.end()
        amount = int(m.group(1))
        log2 = amount.bit_length() - 1
        return 1 << (log2 + {"k": 10, "m": 20, "g": 30}[m.group(2).lower()])

    def pci_addr(self) -> str | None:
        """``unformat_vlib_pci_addr``: ``%x:%x:%x.%x`` or ``%x:%x.%x`` (src/vlib/pci/pci.c)."""
        save = self.i
        self.skip_ws()
        m = re.compile(r"([0-9a-fA-F]+):([0-9a-fA-F]+):([0-9a-fA-F]+)\.([0-9a-fA-F]+)").match(self.text, self.i)
        if m:
            self.i = m.end()
            d, b, s, f = (int(x, 16) for x in m.groups())
            return f"{d:04x}:{b:02x}:{s:02x}.{f:x}"
        m = re.compile(r"([0-9a-fA-F]+):([0-9a-fA-F]+)\.([0-9a-fA-F]+)").match(self.text, self.i)
        if m:
            self.i = m.end()
            b, s, f = (int(x, 16) for x in m.groups())
            return f"0000:{b:02x}:{s:02x}.{f:x}"
        self.i = save
        return None

    def bitmap_list(self) -> tuple[int, ...] | None:
        """``unformat_bitmap_list``: ``1-3,5``."""
        save = self.i
        self.skip_ws()
        m = re.compile(r"\d+(-\d+)?(,\d+(-\d+)?)*").match(self.text, self.i)
        if not m:
            self.i = save
            return None
        self.i = m.end()
        out: list[int] = []
        for part in m.group().split(","):
            lo, _, hi = part.partition("-")
            out += range(int(lo), int(hi or lo) + 1)
        return tuple(sorted(set(out)))

    def error_text(self) -> str:
        """``format_unformat_error``: what is left, at most 30 characters (then ``...``), trailing white space
        dropped when it all fits, \\n \\r \\t written as escapes."""
        rest = self.text[self.i :]
        n = len(rest)
        shown = rest[:ERROR_MAX]
        if n <= ERROR_MAX:
            shown = shown.rstrip(_WS)
        shown = shown.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")
        return shown + ("..." if n > ERROR_MAX else "")
