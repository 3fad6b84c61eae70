"""How each DPDK object declares its inputs, once, for every front end.

A :class:`Param` is one input: its key (``elt_size``: the batch key, the plan-file key and, as
``--elt-size``, the command-line option), its kind, default, limits and help.  An
:class:`ObjectDecl` is one DPDK object: its parameters, the cross-checks and derived values
(:attr:`ObjectDecl.resolve`) and the function that sizes it (:attr:`ObjectDecl.build`).  The
command line (mpcalc.cli), plan items (mpcalc.service.plan), batch lines and sweeps (mpcalc.service.batch,
mpcalc.service.sweep) and the JSON Schema's inputs are all made from these declarations: there is no
second list of options, defaults or limits.

Pure: stdlib only.  :meth:`Param.parse` raises :class:`~mpcalc.dpdk.core.errors.InputError` quoting
the bad value; each front end adds where the value came from.
"""

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.flags import MEMPOOL_FLAGS, FlagSet
from mpcalc.dpdk.core.intmath import U32_MAX
from mpcalc.dpdk.core.limits import quote
from mpcalc.dpdk.core.tuples import positional
from mpcalc.dpdk.core.units import parse_count, parse_size

#: the kinds of input a parameter can be
KINDS = ("count", "size", "choice", "flags", "text", "bool", "path", "page", "argv", "list")


class Param(NamedTuple):
    """One input of a DPDK object (or of the platform)."""

    key: str
    kind: str
    help: str
    default: Any = None
    lo: int = 0
    hi: int = U32_MAX
    choices: tuple[str, ...] = ()
    #: a choice whose values are integers on the command line's strings ("64", "128")
    numeric: bool = False
    required: bool = False
    #: required unless ``--fit`` finds it (the value ``--fit`` grows)
    needed: bool = False
    short: str | None = None
    #: what ``--help`` shows as the default (None: nothing, or the default itself when ``show_default``)
    show_default: bool | str = False
    metavar: str | None = None
    #: the front ends that accept it: the command line, plan items, batch lines
    fronts: frozenset[str] = frozenset({"cli", "plan", "batch"})
    #: ``--flags all`` (every sizing combination) is accepted on the command line and in a batch
    all_combinations: bool = True
    #: a flags parameter's vocabulary: mempool flags, or the object's own (a ring's RING_F_*:
    #: mpcalc.dpdk.objects.objflags);
    #: the object's results name their flags in it (:attr:`ObjectDecl.flag_set`)
    vocabulary: FlagSet = MEMPOOL_FLAGS

    @property
    def option(self) -> str:
        """The command-line option: ``--elt-size``."""
        return "--" + self.key.replace("_", "-")

    @property
    def numeric_kind(self) -> bool:
        """A count or a size: what a sweep can vary."""
        return self.kind in ("count", "size")

    def parse(self, value: Any) -> Any:
        """The value as mpcalc uses it, from a command-line string or a JSON/TOML value.

        >>> Param("count", "count", "").parse("1M"), Param("elt_size", "size", "").parse("2K")
        (1000000, 2048)
        >>> Param("count", "count", "", hi=10).parse(11)
        Traceback (most recent call last):
        ...
        mpcalc.dpdk.core.errors.InputError: 11 is above the maximum 10
        """
        return _PARSERS[self.kind](self, value)


def _as_number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _ranged(p: Param, value: Any, parse: Callable[[Any], int]) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InputError(f"{quote(value)} is not a {'count' if p.kind == 'count' else 'size'}")
    number = value if isinstance(value, int) else parse(value)
    if number < p.lo:
        raise InputError(f"{quote(value)} is below the minimum {p.lo}")
    if number > p.hi:
        raise InputError(f"{quote(value)} is above the maximum {p.hi:,}")
    return number


def _choice(p: Param, value: Any) -> Any:
    """One of the choices; a number (a TOML or JSON ``22.11``) is the one choice that reads as that number,
    else refused naming the string to write.

    >>> release = Param("dpdk", "choice", "", choices=("21.11", "22.11", "23.10"))
    >>> release.parse(22.11), release.parse(23.1)
    ('22.11', '23.10')
    >>> release.parse(24.5)
    Traceback (most recent call last):
    ...
    mpcalc.dpdk.core.errors.InputError: 24.5 is a number, not one of 21.11, 22.11, 23.10 (give the text, "24.5")
    """
    if isinstance(value, float):
        same = [c for c in p.choices if _as_number(c) == value]
        if len(same) != 1:
            raise InputError(
                f'{quote(value)} is a number, not one of {", ".join(p.choices)} (give the text, "{value}")'
            )
        value = same[0]
    text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
    if text not in p.choices:
        raise InputError(f"{quote(value)} is not one of {', '.join(p.choices)}")
    return int(text) if p.numeric else text


def _flags(p: Param, value: Any) -> list[int]:
    """A list of flag masks: one, or every sizing combination for ``all``."""
    vocabulary = p.vocabulary
    if isinstance(value, list):
        if not all(isinstance(v, str) for v in value):
            raise InputError(f"{quote(value)} is not a flag list")
        value = ",".join(value) or "none"
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputError(f"{quote(value)} is not a flag list")
    if str(value).strip().lower() == "all":
        if not p.all_combinations:
            raise InputError("'all' is for the single commands; a plan item has one set of flags")
        return vocabulary.combinations()
    return [vocabulary.parse(str(value))]


def _text(p: Param, value: Any) -> str:
    if not isinstance(value, str):
        raise InputError(f"{quote(value)} is not text")
    return value


def _bool(p: Param, value: Any) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{quote(value)} is not true or false")
    return value


def _list(p: Param, value: Any) -> list[str]:
    """A repeatable option's values (``--port a --port b``; a plan's or a batch's array of strings)."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not all(isinstance(v, str) for v in items):
        raise InputError(f"{quote(value)} is not a list of text")
    return list(items)


def _page(p: Param, value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value == 0:
        return 0
    if isinstance(value, str) and value.strip().lower() in ("none", "0"):
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InputError(f"{quote(value)} is not a page size (a power of two from 4K; or none)")
    size = value if isinstance(value, int) else parse_size(value)
    if size < 4096 or size & (size - 1) or size > 1 << 40:
        raise InputError(f"{quote(value)} is not a page size (a power of two from 4K; or none)")
    return size


def _argv(p: Param, value: Any) -> list[str]:
    """A command line: a list of strings (a plan file's array), or one string split as a shell would."""
    if isinstance(value, str):
        import shlex

        return shlex.split(value)
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise InputError(f"{quote(value)} is not a command line (a list of strings)")
    return list(value)


_PARSERS: dict[str, Callable[[Param, Any], Any]] = {
    "count": lambda p, v: _ranged(p, v, parse_count),
    "size": lambda p, v: _ranged(p, v, parse_size),
    "choice": _choice,
    "flags": _flags,
    "text": _text,
    "bool": _bool,
    "path": _text,
    "page": _page,
    "argv": _argv,
    "list": _list,
}


class Resolved(NamedTuple):
    """An object's arguments after its cross-checks: the report's ``input`` section, and what the
    sizing needs besides (a parsed route table, say) that is not part of the document."""

    inputs: dict[str, Any]
    extra: Mapping[str, Any]


#: ``Resolved(*values)``, as :func:`mpcalc.dpdk.core.tuples.positional` makes it
new_resolved = positional(Resolved)


def plain(args: Mapping[str, Any]) -> Resolved:
    """The default :attr:`ObjectDecl.resolve`: every argument but the flags is an input."""
    return new_resolved(({k: v for k, v in args.items() if k != "flags"}, {}))


class ObjectDecl(NamedTuple):
    """One DPDK object, as every front end sees it.

    Everything a kind is, is here: the registry (mpcalc.dpdk.core.registry) and this make its command, plan item,
    batch lines, sweeps, ``--fit``, its JSON (its flags' names, its own memzones) and its schema.

    ``build(inputs, extra, flags, platform)`` sizes it (:class:`~mpcalc.dpdk.core.records.Result`);
    ``resolve(args)`` checks the arguments together and derives the report's inputs, raising
    :class:`InputError` naming the option; ``fit`` maps the keys ``--fit`` can grow (the first
    given one is grown, else the first) to their largest valid value.
    """

    name: str
    summary: str
    params: tuple[Param, ...]
    build: Callable[[Mapping[str, Any], Mapping[str, Any], int, Any], Any]
    resolve: Callable[[Mapping[str, Any]], Resolved] = plain
    fit: Mapping[str, int] = {}
    #: the prefix of the memzone names a plan checks for a duplicate (DPDK's EEXIST)
    zone_prefix: str = "MP_"
    #: parameters the report's inputs name otherwise (rib's ``--nodes`` is its ``max_nodes``)
    input_names: Mapping[str, str] = {}
    #: what the object holds, for "bytes per ..." (a sweep's default picture): (the input that counts them,
    #: their name), e.g. ("count", "object"); None: not a container
    per: tuple[str, str] | None = None
    #: ``footprint(inputs, extra, flags, platform)``: the numbers of :attr:`build`'s result without its
    #: records, from the same composition (compact batch answers, sweeps); None: read off ``build``
    footprint: Callable[[Mapping[str, Any], Mapping[str, Any], int, Any], Any] | None = None
    #: its memzones are its own, outside any mempool (a ring's RG_<name>: :attr:`Result.zones`): its JSON
    #: results list them as ``memzones`` (else they are its mempools')
    own_zones: bool = False
    #: the plan file's table of this object (``[[pool]]``); None: its name
    plan_table: str | None = None

    def input_name(self, key: str) -> str:
        return self.input_names.get(key, key)

    def param(self, key: str) -> Param | None:
        for p in self.params:
            if p.key == key:
                return p
        return None

    def keys(self, front: str) -> dict[str, Param]:
        """The parameters a front end accepts, by key."""
        return {p.key: p for p in self.params if front in p.fronts}

    def defaults(self) -> dict[str, Any]:
        return {p.key: p.default for p in self.params}

    @property
    def has_flags(self) -> bool:
        """It takes mempool flags (``--flags all`` is every combination of the mempool's sizing flags)."""
        return any(p.kind == "flags" and p.vocabulary is MEMPOOL_FLAGS for p in self.params)

    @property
    def flag_set(self) -> FlagSet:
        """The vocabulary its results' flags are named in: its flags parameter's (mempool flags without one)."""
        return next((p.vocabulary for p in self.params if p.kind == "flags"), MEMPOOL_FLAGS)

    @property
    def plan_item(self) -> str:
        """The plan file's table of this object (``[[ring]]``)."""
        return self.plan_table or self.name

    def fit_key(self, args: Mapping[str, Any]) -> str | None:
        """The key ``--fit`` grows: the first of :attr:`fit` that is given, else the first."""
        if not self.fit:
            return None
        return next((k for k in self.fit if args.get(k) is not None), next(iter(self.fit)))


# --- parameters shared by several objects ---------------------------------------------------------

FLAGS = Param(
    "flags",
    "flags",
    "Mempool flags: a list (no_cache_align,no_spread), DPDK macro names, a mask (0x23), "
    "none, or all (every combination of no_cache_align, no_spread and no_iova_contig).",
    default=[0],
    show_default="none",
)
CACHE_SIZE = Param("cache_size", "count", "Per-lcore cache size.", default=0, show_default=True)
CACHE_LAYOUT = Param(
    "cache_layout",
    "choice",
    "Per-lcore cache slots: pointers (DPDK) or 32-bit indices (the index-based cache RFC).",
    default="pointer",
    choices=("pointer", "index"),
    show_default=True,
)


def name_param(default: str, zones: str, what: str = "Pool") -> Param:
    return Param("name", "text", f"{what} name (memzones {zones}...).", default=default, show_default=True)


def exactly_one(args: Mapping[str, Any], *keys: str) -> None:
    given = [k for k in keys if args.get(k) is not None]
    if len(given) != 1:
        raise InputError("give exactly one of " + " and ".join("--" + k.replace("_", "-") for k in keys))


def at_most_one(args: Mapping[str, Any], *keys: str) -> None:
    given = [k for k in keys if args.get(k) is not None]
    if len(given) > 1:
        raise InputError("give at most one of " + " and ".join("--" + k.replace("_", "-") for k in keys))
