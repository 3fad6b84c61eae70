"""The part of the C preprocessor a DPDK build's configuration headers need, done as GCC does it.

A build's configuration reaches ``rte_mempool.c`` as ``-include rte_config.h`` (config/meson.build adds it
to every compile; buildtools/pkg-config/meson.build writes it into libdpdk.pc's Cflags) and rte_config.h
``#include <rte_build_config.h>`` (v22.11:config/rte_config.h:15), after the command line's ``-D``/``-U``.
This module reads those files as the compiler would: ``#define``/``#undef``, ``#include`` found on the
search path, ``#ifdef``/``#ifndef``/``#if``/``#elif``/``#else``/``#endif`` with integer expressions and
``defined``, ``#pragma once`` and include guards.  Headers that are not on the given search path (libc's)
are not followed: DPDK's configuration headers include nothing else.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import ClassVar, NamedTuple

from mpcalc.dpdk.core.errors import InputError

MAX_BYTES = 4 * 2**20
MAX_DEPTH = 32
MAX_FILES = 256
_DIRECTIVE = re.compile(r"^\s*#\s*(\w+)\s*(.*)$")
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)
_TOKEN = re.compile(
    r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)[uUlL]*|([A-Za-z_]\w*)"
    r"|(&&|\|\||<<|>>|<=|>=|==|!=|[-+*/%<>!~&|^?:(),]))"
)
_NAME = re.compile(r"[A-Za-z_]\w*$")


class Macro(NamedTuple):
    """A defined macro: its replacement text and where it was defined (``file:line`` or a flag)."""

    value: str
    where: str
    params: tuple[str, ...] | None = None  #: a function-like macro's parameters


def _strip_comments(text: str) -> str:
    """Comments become one space (C11 5.1.1.2 phase 3); string and character literals stay as they are."""
    return _COMMENT.sub(lambda m: m.group(0) if m.group(0)[0] in "\"'" else "\n" * m.group(0).count("\n") or " ", text)


class Preprocessor:
    """Macros after ``-D``/``-U`` flags and the headers a compile reads, with GCC's search order:
    ``#include "..."`` looks in the including file's folder, then ``quote_dirs`` (-iquote), then
    ``include_dirs`` (-I, -isystem, -idirafter in that order); ``#include <...>`` only in the latter."""

    def __init__(self, include_dirs: list[Path], quote_dirs: list[Path] | None = None) -> None:
        self.include_dirs = include_dirs
        self.quote_dirs = quote_dirs or []
        self.macros: dict[str, Macro] = {}
        self.files: list[str] = []  #: every header read, in order
        self.not_found: list[str] = []  #: ``#include`` names not on the search path (not followed)
        self._once: set[Path] = set()

    # --- the command line -------------------------------------------------------------------------

    def define_flag(self, text: str, where: str) -> None:
        """``-DNAME`` (defines NAME as 1) or ``-DNAME=VALUE``, as GCC reads them."""
        name, eq, value = text.partition("=")
        params = None
        if "(" in name:
            name, _, rest = name.partition("(")
            params = tuple(p.strip() for p in rest.rstrip(")").split(",") if p.strip())
        if not _NAME.match(name):
            raise InputError(f"{where}: -D{text} does not define a macro name")
        self.macros[name] = Macro(value if eq else "1", where, params)

    def undefine(self, name: str) -> None:
        self.macros.pop(name, None)

    # --- headers ----------------------------------------------------------------------------------

    def find(self, name: str, quoted: bool, current: Path | None) -> Path | None:
        dirs = [*([current] if quoted and current else []), *(self.quote_dirs if quoted else []), *self.include_dirs]
        for d in dirs:
            candidate = d / name
            if candidate.is_file():
                return candidate
        return None

    def include(self, path: Path, depth: int = 0) -> None:
        """Read one header as ``#include`` does (its directives act on :attr:`macros`)."""
        resolved = path.resolve()
        if resolved in self._once:
            return
        if depth > MAX_DEPTH or len(self.files) >= MAX_FILES:
            raise InputError(f"{path}: #include nested over {MAX_DEPTH} deep or over {MAX_FILES} files")
        self.files.append(str(path))
        text = _read_text(path)
        lines = _strip_comments(text.replace("\\\n", "")).splitlines()
        # a stack of (this branch is taken, some branch of this group was taken, the enclosing group is live)
        stack: list[tuple[bool, bool, bool]] = []
        live = True
        for number, line in enumerate(lines, 1):
            m = _DIRECTIVE.match(line)
            if not m:
                continue
            word, rest = m.group(1), m.group(2).strip()
            where = f"{path}:{number}"
            if word in ("ifdef", "ifndef", "if"):
                if not live:
                    stack.append((False, True, False))
                    continue
                if word == "if":
                    taken = self.evaluate(rest, where) != 0
                else:
                    taken = (_first_name(rest, where) in self.macros) == (word == "ifdef")
                stack.append((taken, taken, live))
                live = taken
            elif word in ("elif", "else"):
                if not stack:
                    raise InputError(f"{where}: #{word} without #if")
                _, done, outer = stack[-1]
                taken = outer and not done and (word == "else" or self.evaluate(rest, where) != 0)
                stack[-1] = (taken, done or taken, outer)
                live = taken
            elif word == "endif":
                if not stack:
                    raise InputError(f"{where}: #endif without #if")
                _, _, live = stack.pop()
            elif not live:
                continue
            elif word == "define":
                self._define(rest, where)
            elif word == "undef":
                self.macros.pop(_first_name(rest, where), None)
            elif word == "include":
                self._include(rest, path, depth, where)
            elif word == "pragma" and rest.split()[:1] == ["once"]:
                self._once.add(resolved)
            elif word == "error":
                raise InputError(f"{where}: #error {rest}")
        if stack:
            raise InputError(f"{path}: #if without #endif")

    def _define(self, rest: str, where: str) -> None:
        m = re.match(r"([A-Za-z_]\w*)(\([^)]*\))?\s*(.*)$", rest)
        if not m:
            raise InputError(f"{where}: #define {rest!r} names no macro")
        params = tuple(p.strip() for p in m.group(2)[1:-1].split(",") if p.strip()) if m.group(2) else None
        self.macros[m.group(1)] = Macro(m.group(3).strip(), where, params)

    def _include(self, rest: str, current: Path, depth: int, where: str) -> None:
        m = re.match(r'"([^"]+)"|<([^>]+)>', rest)
        if not m:
            raise InputError(f"{where}: #include {rest!r} is not a header name")
        name = m.group(1) or m.group(2)
        found = self.find(name, m.group(1) is not None, current.parent)
        if found is None:
            self.not_found.append(name)
            return
        self.include(found, depth + 1)

    # --- values -----------------------------------------------------------------------------------

    def text(self, name: str) -> str | None:
        macro = self.macros.get(name)
        return None if macro is None else macro.value

    def evaluate(self, expr: str, where: str, strict: bool = False) -> int:
        """An ``#if`` expression (C11 6.10.1): ``defined``, macros expanded, unknown names 0.

        >>> Preprocessor([]).evaluate("defined(X) || (1 << 7) == 128 && !0", "t")
        1
        """
        tokens = self._expand(_tokens(expr, where), where, set(), strict)
        return _Parser(tokens, where).parse()

    def _expand(self, tokens: list[str], where: str, active: set[str], strict: bool = False) -> list[str]:
        """``strict``: a name that is no macro is an error (a value, not an ``#if``)."""
        out: list[str] = []
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            if tok == "defined":
                j = i + 1
                paren = j < len(tokens) and tokens[j] == "("
                j += paren
                if j >= len(tokens) or not _NAME.match(tokens[j]) or (paren and tokens[j + 1 : j + 2] != [")"]):
                    raise InputError(f"{where}: 'defined' needs a macro name")
                out.append("1" if tokens[j] in self.macros else "0")
                i = j + 1 + paren
                continue
            macro = self.macros.get(tok) if _NAME.match(tok) else None
            if macro is not None and tok not in active:
                if macro.params is not None:
                    raise InputError(
                        f"{where}: function-like macro {tok} ({macro.where}) in an expression is not supported"
                    )
                out += self._expand(_tokens(macro.value, macro.where), macro.where, active | {tok}, strict)
            elif _NAME.match(tok):
                if strict:
                    raise InputError(f"{where}: {tok!r} is not a number", param="--build-config")
                out.append("0")  # C11 6.10.1p4: remaining identifiers are replaced with 0
            else:
                out.append(tok)
            i += 1
        return out


def _first_name(rest: str, where: str) -> str:
    m = re.match(r"[A-Za-z_]\w*", rest)
    if not m:
        raise InputError(f"{where}: a directive without a macro name")
    return m.group(0)


def _tokens(expr: str, where: str) -> list[str]:
    out, pos, expr = [], 0, expr.rstrip()
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if not m:
            raise InputError(f"{where}: cannot read {expr[pos:].strip()!r} in an expression")
        out.append(m.group(1) or m.group(2) or m.group(3))
        pos = m.end()
    return out


class _Parser:
    """Precedence climbing over C's binary operators, then ``?:`` and unary ``! ~ - +``."""

    _BINARY: ClassVar[dict[str, int]] = {
        "||": 1,
        "&&": 2,
        "|": 3,
        "^": 4,
        "&": 5,
        "==": 6,
        "!=": 6,
        "<": 7,
        ">": 7,
        "<=": 7,
        ">=": 7,
        "<<": 8,
        ">>": 8,
        "+": 9,
        "-": 9,
        "*": 10,
        "/": 10,
        "%": 10,
    }

    def __init__(self, tokens: list[str], where: str) -> None:
        self.tokens, self.pos, self.where = tokens, 0, where

    def parse(self) -> int:
        if not self.tokens:
            raise InputError(f"{self.where}: #if with no expression")
        value = self.conditional()
        if self.pos != len(self.tokens):
            raise InputError(f"{self.where}: unexpected {self.tokens[self.pos]!r} in an expression")
        return value

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise InputError(f"{self.where}: expected {expected or 'a value'} in an expression")
        self.pos += 1
        return tok

    def conditional(self) -> int:
        cond = self.binary(1)
        if self.peek() != "?":
            return cond
        self.take("?")
        yes = self.conditional()
        self.take(":")
        no = self.conditional()
        return yes if cond else no

    def binary(self, level: int) -> int:
        left = self.unary()
        while (op := self.peek()) in self._BINARY and self._BINARY[op] >= level:
            self.take()
            right = self.binary(self._BINARY[op] + 1)
            left = self.apply(op, left, right)
        return left

    def apply(self, op: str, a: int, b: int) -> int:
        if op in ("/", "%") and b == 0:
            raise InputError(f"{self.where}: division by zero in an expression")
        if op == "/":
            return abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)  # C truncates toward zero
        if op == "%":
            return a - b * (abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1))
        table = {
            "||": lambda: int(bool(a) or bool(b)),
            "&&": lambda: int(bool(a) and bool(b)),
            "|": lambda: a | b,
            "^": lambda: a ^ b,
            "&": lambda: a & b,
            "==": lambda: int(a == b),
            "!=": lambda: int(a != b),
            "<": lambda: int(a < b),
            ">": lambda: int(a > b),
            "<=": lambda: int(a <= b),
            ">=": lambda: int(a >= b),
            "<<": lambda: a << b if b >= 0 else 0,
            ">>": lambda: a >> b if b >= 0 else 0,
            "+": lambda: a + b,
            "-": lambda: a - b,
            "*": lambda: a * b,
        }
        return table[op]()

    def unary(self) -> int:
        tok = self.take()
        if tok == "(":
            value = self.conditional()
            self.take(")")
            return value
        if tok in ("!", "~", "-", "+"):
            v = self.unary()
            return {"!": int(not v), "~": ~v, "-": -v, "+": v}[tok]
        if tok[0].isdigit():
            return int(tok, 16) if tok[:2] in ("0x", "0X") else int(tok, 8) if tok[0] == "0" else int(tok)
        raise InputError(f"{self.where}: unexpected {tok!r} in an expression")


def _read_text(path: Path) -> str:
    try:
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputError(f"cannot read {str(path)!r}: {exc.strerror}", param="--build-config") from None
    if len(data) > MAX_BYTES or b"\0" in data:
        raise InputError(f"{str(path)!r} is not a C header (binary or over 4 MiB)", param="--build-config")
    try:
        return data.decode()
    except UnicodeDecodeError:
        raise InputError(f"{str(path)!r} is not UTF-8 text", param="--build-config") from None
