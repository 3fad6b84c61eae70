"""click parameter types made from the declarations (mpcalc.dpdk.core.declare.Param): each parses with the
model's own :meth:`Param.parse` and fails with ``self.fail``; and click options made from a Param."""

from __future__ import annotations

from typing import Any

import click

from mpcalc.dpdk.core.declare import Param
from mpcalc.dpdk.core.errors import InputError


class Declared(click.ParamType):
    """A declared count, size, page size, flag list, text or path."""

    def __init__(self, param: Param) -> None:
        self.param = param
        self.name = {"page": "page-size"}.get(param.kind, param.kind)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value is self.param.default and not isinstance(value, str):
            return value  # a default is declared parsed
        try:
            return self.param.parse(value)
        except InputError as exc:
            self.fail(str(exc), param, ctx)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
        """What a shell completes: flag names (each after the last ``,`` or ``|`` of a list), page sizes."""
        from click.shell_completion import CompletionItem

        return [CompletionItem(value) for value in completions(self.param, incomplete)]


#: the page sizes a shell offers for --page-size (any power of two from 4K is accepted)
PAGE_SIZES = ("4K", "64K", "2M", "32M", "512M", "1G", "16G", "none")


def completions(p: Param, incomplete: str) -> list[str]:
    """The values of ``p`` that complete ``incomplete``.

    >>> completions(Param("page_size", "page", ""), "1")
    ['1G', '16G']
    >>> completions(Param("flags", "flags", ""), "no_spread,no_")
    ['no_spread,no_cache_align', 'no_spread,no_iova_contig']
    """
    if p.kind == "page":
        return [v for v in PAGE_SIZES if v.lower().startswith(incomplete.lower())]
    if p.kind != "flags":
        return []

    names = p.vocabulary.offer
    cut = max(incomplete.rfind(","), incomplete.rfind("|")) + 1
    head, last = incomplete[:cut], incomplete[cut:].lower()
    given = {t.strip().lower() for t in head.replace("|", ",").split(",")}
    if not head.strip():
        names += ["none", "all"] if p.all_combinations else ["none"]
    return [head + n for n in names if n.startswith(last) and n not in given]


class DeclaredChoice(click.Choice):
    """A declared choice: click lists the choices in --help; the value is the declaration's (an int for 64/128)."""

    def __init__(self, param: Param) -> None:
        super().__init__(list(param.choices))
        self.param = param

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        return self.param.parse(super().convert(value, param, ctx))


def click_type(p: Param) -> click.ParamType:
    return DeclaredChoice(p) if p.kind == "choice" else Declared(p)


def option(p: Param, **overrides: Any) -> click.Option:
    """The click option of a declared parameter (``--elt-size``; ``--debug/--no-debug`` for a tri-state switch)."""
    if p.kind == "argv":  # a command line after --: a click argument, not an option
        return click.Argument([p.key], nargs=-1, type=click.UNPROCESSED, required=p.required, metavar=p.metavar)  # type: ignore[return-value]
    if p.kind == "bool":
        decls = [p.option if p.default is False else f"{p.option}/--no-{p.option[2:]}", p.key]
        return click.Option(decls, **{"is_flag": True, "default": p.default, "help": p.help, **overrides})
    decls = [p.option, *([p.short] if p.short else []), p.key]
    shown, help_text = p.show_default, p.help
    if isinstance(shown, str):  # the default as it is written (click would put it in parentheses)
        shown, help_text = False, f"{help_text}  [default: {shown}]"
    kw: dict[str, Any] = dict(
        type=click_type(p), required=p.required, help=help_text, show_default=shown, metavar=p.metavar
    )
    if p.default is not None:  # click takes an explicit None as a value: a required option would be satisfied
        kw["default"] = p.default
    if p.kind == "list":  # repeatable: each value a text, the whole a tuple the declaration's parse takes
        kw.update(multiple=True, type=click.STRING)
    kw.update(overrides)
    return click.Option(decls, **kw)
