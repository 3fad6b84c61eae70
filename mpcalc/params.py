"""click parameter types: each parses with the engine's helpers and fails with ``self.fail``."""

from __future__ import annotations

import click

from .dpdk.errors import InputError
from .dpdk.flags import parse_flags, sizing_combinations
from .dpdk.intmath import U32_MAX
from .dpdk.units import parse_count, parse_size


class _Ranged(click.ParamType):
    parse = staticmethod(parse_count)

    def __init__(self, *, minimum: int = 0, maximum: int = U32_MAX) -> None:
        self.minimum = minimum
        self.maximum = maximum

    def convert(self, value, param, ctx):  # type: ignore[no-untyped-def]
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = self.parse(value)
            except InputError as exc:
                self.fail(str(exc), param, ctx)
        if number < self.minimum:
            self.fail(f"{value!r} is below the minimum {self.minimum}", param, ctx)
        if number > self.maximum:
            self.fail(f"{value!r} is above the maximum {self.maximum:,}", param, ctx)
        return number


class Count(_Ranged):
    """A count: ``8191``, ``1M`` (10^6), ``1Mi`` (2^20)."""

    name = "count"


class Size(_Ranged):
    """A byte size: ``64``, ``4K``/``4KiB`` (4096), ``4KB`` (4000)."""

    name = "size"
    parse = staticmethod(parse_size)


class PageSize(click.ParamType):
    """``4K``, ``64K``, ``2M``, ``1G`` or ``none``."""

    name = "page-size"

    def convert(self, value, param, ctx):  # type: ignore[no-untyped-def]
        if isinstance(value, int):
            return value
        if str(value).strip().lower() in ("none", "0"):
            return 0
        try:
            size = parse_size(value)
        except InputError as exc:
            self.fail(str(exc), param, ctx)
        if size < 4096 or size & (size - 1) or size > 1 << 40:
            self.fail(f"{value!r} is not a page size (a power of two from 4K; or none)", param, ctx)
        return size


class Flags(click.ParamType):
    """A flag list (``no_cache_align,no_spread``, ``RTE_MEMPOOL_F_NO_SPREAD|SP_PUT``, ``0x23``, ``none``)
    or ``all``; converts to the list of masks to evaluate."""

    name = "flags"

    def convert(self, value, param, ctx):  # type: ignore[no-untyped-def]
        if isinstance(value, list):
            return value
        if str(value).strip().lower() == "all":
            return sizing_combinations()
        try:
            return [parse_flags(str(value))]
        except InputError as exc:
            self.fail(str(exc), param, ctx)
