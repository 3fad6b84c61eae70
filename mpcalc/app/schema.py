"""The JSON Schemas ``mpcalc schema`` prints: the output documents (mpcalc/schema.json, with each
object's ``input`` section made from its declaration) and the plan file's (made from the declarations).

A declared parameter becomes a JSON Schema property once, here: its type, range and choices.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

from ..dpdk import objects
from ..dpdk.declare import Param
from ..dpdk.platform import PLATFORM_PARAMS

_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def property_of(p: Param, *, source: bool) -> dict[str, Any]:
    """The schema of one parameter: as a user writes it (``source``: a plan file, where counts may be
    ``"1M"``) or as a report shows it (parsed)."""
    out: dict[str, Any]
    if p.kind in ("count", "size"):
        number = {"type": "integer", "minimum": p.lo, "maximum": p.hi}
        out = (
            {"anyOf": [number, {"type": "string", "pattern": r"^\s*[0-9][0-9_.xXa-fA-F]*\s*[A-Za-z]*\s*$"}]}
            if source
            else number
        )
    elif p.kind == "choice":
        out = {"enum": [int(c) for c in p.choices] if p.numeric else list(p.choices)}
        if p.numeric and source:
            out = {"enum": [*out["enum"], *p.choices]}
    elif p.kind == "flags":
        out = {
            "anyOf": [
                {"type": "string"},
                {"type": "integer", "minimum": 0, "maximum": 0xFFFFFFFF},
                {"type": "array", "items": {"type": "string"}},
            ]
        }
    elif p.kind == "bool":
        out = {"type": "boolean"}
    elif p.kind in ("argv", "list"):
        out = {"type": "array", "items": {"type": "string"}}
    elif p.kind == "page":
        out = (
            {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]}
            if source
            else {"type": "integer", "minimum": 0}
        )
    else:
        out = {"type": "string"}
    if not source and p.default is None and not p.required:
        out = {"anyOf": [out, {"type": "null"}]}
    return {**out, "description": p.help}


def input_schema(name: str) -> dict[str, Any]:
    """The ``input`` section of a report of object ``name``: its declared parameters as parsed (a
    parameter the report names otherwise, such as rib's derived ``max_nodes``, is an integer)."""
    decl = objects.get(name)
    props: dict[str, Any] = {}
    for p in decl.params:
        if p.kind == "flags":
            continue
        key = decl.input_name(p.key)
        props[key] = (
            property_of(p, source=False)
            if key == p.key
            else {
                "type": ["integer", "null"],
                "description": f"derived from --{p.key.replace('_', '-')} (null: --fit found "
                "different values for the flag combinations, or none)",
            }
        )
    return {"type": "object", "additionalProperties": False, "required": sorted(props), "properties": props}


def documents() -> dict[str, Any]:
    """The schema of every JSON document mpcalc prints."""
    schema: dict[str, Any] = json.loads(files("mpcalc").joinpath("schema.json").read_text())
    schema["$defs"]["planItem"]["properties"]["kind"] = {"enum": list(objects.NAMES)}
    report = schema["$defs"]["report"]
    report["allOf"] = [
        {"if": {"properties": {"command": {"const": name}}}, "then": {"properties": {"input": input_schema(name)}}}
        for name in objects.NAMES
    ]
    return schema


def plan_file() -> dict[str, Any]:
    """The schema of a plan file (TOML, read as JSON would be): [platform] and an array of tables per object."""
    from .plan import item_params, platform_params

    items = {}
    for name in objects.NAMES:
        params = item_params(name)
        required = [k for k, p in params.items() if p.required or p.needed or k == "name"]
        items[name] = {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": required,
                "properties": {k: property_of(p, source=True) for k, p in params.items()},
            },
        }
    platform = {k: property_of(p, source=True) for k, p in platform_params().items()}
    assert set(platform) >= {p.key for p in PLATFORM_PARAMS if "plan" in p.fronts}
    return {
        "$schema": _DRAFT,
        "$id": "https://mpcalc.invalid/schema/1.0/plan-file.json",
        "title": "mpcalc plan file",
        "description": "A whole application for mpcalc plan: [platform] and one [[table]] per pool, mbuf pool, "
        "RIB or FIB. Keys are the single commands' long options with _ for -.",
        "type": "object",
        "additionalProperties": False,
        "properties": {"platform": {"type": "object", "additionalProperties": False, "properties": platform}, **items},
    }
