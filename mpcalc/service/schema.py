"""The JSON Schemas ``mpcalc schema`` prints, made when asked for: every JSON document mpcalc prints
(:func:`documents`) and the plan file (:func:`plan_file`).

What depends on the objects is made from their declarations (mpcalc.dpdk.core.registry): the sizing commands,
a result's kinds, each kind's flag names and memzones, each report's ``input``, the plan's items, the keys
a sweep varies.  A declared parameter becomes a JSON Schema property once, here (:func:`property_of`).

Each document is one entry of :data:`DOCUMENTS`: a command that prints a new document adds its line there.
"""

from __future__ import annotations

import importlib
from typing import Any

from mpcalc.dpdk.core import registry
from mpcalc.dpdk.core.declare import Param
from mpcalc.dpdk.core.flags import MEMPOOL_FLAGS, FlagSet
from mpcalc.dpdk.core.platform import PLATFORM_PARAMS
from mpcalc.dpdk.core.records import SCHEMA_VERSION

_DRAFT = "https://json-schema.org/draft/2020-12/schema"

#: every JSON document mpcalc prints: its name in the schema's ``$defs`` -> (module, function) whose
#: ``function()`` returns the document's schema (imported when the schema is asked for).  A schema may
#: refer to the records every document shares (``{"$ref": "#/$defs/result"}``, the keys of ``_pieces``).
#: A new command's document is one line here; tests/test_schema.py checks each command's output against it.
DOCUMENTS: dict[str, tuple[str, str]] = {
    "report": (__name__, "report"),
    "diff": (__name__, "diff"),
    "plan": (__name__, "plan"),
    "inspect": ("mpcalc.inspect.inspect_schema", "document"),
    "batchCompact": (__name__, "batch_compact"),
    "batchError": (__name__, "batch_error"),
    "sweepRow": (__name__, "sweep_row"),
}


def documents() -> dict[str, Any]:
    """The schema of every JSON document mpcalc prints: one of :data:`DOCUMENTS`."""
    defs = {**_pieces(), **_flag_names(), "planItem": _plan_item(), **_kubernetes()}
    defs["result"]["allOf"] = [_result_of(name) for name in registry.NAMES] + _advice_settings()
    for name, (module, function) in DOCUMENTS.items():
        defs[name] = getattr(importlib.import_module(module), function)()
    return {
        "$schema": _DRAFT,
        "$id": f"https://mpcalc.invalid/schema/{SCHEMA_VERSION}/report.json",
        "title": "mpcalc report",
        "description": "Every JSON document mpcalc prints: a sizing command's --json (the platform, the inputs and "
        "one result per flag combination), diff, plan, inspect, batch and sweep lines. Every byte count is an "
        "exact integer.",
        "x-schema-version": SCHEMA_VERSION,
        "oneOf": [{"$ref": f"#/$defs/{name}"} for name in DOCUMENTS],
        "$defs": defs,
    }


def _vocabulary(name: str) -> FlagSet:
    """The flag set a result of object ``name`` names its flags in."""
    return registry.get(name).flag_set


def _flag_names() -> dict[str, Any]:
    every = dict.fromkeys(n for name in registry.NAMES for n in (*MEMPOOL_FLAGS.bits, *_vocabulary(name).bits))
    return {
        "flagName": {
            "description": "Short name of a flag bit in the result's kind's vocabulary (mempool flags; a ring's "
            "RING_F_*, a hash's extra flags), or unknown bits as lower-case hex "
            "(mpcalc.dpdk.core.flags.FlagSet.names).",
            "type": "string",
            "pattern": f"^({'|'.join(every)}|0x[0-9a-f]+)$",
        },
        "userFlagName": {"description": "A flag in RTE_MEMPOOL_VALID_USER_FLAGS.", "enum": MEMPOOL_FLAGS.offer},
    }


def _result_of(name: str) -> dict[str, Any]:
    """What a result of object ``name`` is besides a result: its flags in its own vocabulary, and its own
    memzones listed (or none listed: they are in its mempools)."""
    flag = {"anyOf": [{"enum": list(_vocabulary(name).bits)}, {"type": "string", "pattern": "^0x[0-9a-f]+$"}]}
    zones = {"required": ["memzones"]} if registry.get(name).own_zones else {"not": {"required": ["memzones"]}}
    return {
        "if": {"properties": {"kind": {"const": name}}, "required": ["kind"]},
        "then": {"properties": {"flags": {"items": flag}}, **zones},
    }


def _advice_settings() -> list[dict[str, Any]]:
    """Where a whole application's result (mpcalc.service.pages.ADVISERS) has its settings: ``app`` and ``trace``
    the plan's (``details.advice.settings``), ``ovs`` its Kubernetes block beside its own words."""

    def advice(props: dict[str, Any]) -> dict[str, Any]:
        return {"properties": {"details": {"properties": {"advice": {"properties": props}}}}}

    where = {"app": "settings", "trace": "settings", "ovs": "kubernetes"}
    ref = {"settings": "#/$defs/planSettings", "kubernetes": "#/$defs/kubernetes"}
    return [
        {
            "if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
            "then": advice({key: {"$ref": ref[key]}}),
        }
        for kind, key in where.items()
    ]


def _kubernetes() -> dict[str, Any]:
    """The plan's settings and their Kubernetes block (mpcalc.service.plan.PlanReport.settings, mpcalc.service.k8s)."""
    string = {"type": "string", "minLength": 1}
    strings = {"type": "array", "items": string}
    count = {"type": "integer", "minimum": 0}
    quantities = {"type": "object", "additionalProperties": {"type": "string", "pattern": "^[0-9]+(Ki|Mi|Gi)?$"}}
    resources = {
        "type": "object",
        "additionalProperties": False,
        "required": ["requests", "limits"],
        "properties": {"requests": quantities, "limits": quantities},
    }
    node_pages = {
        "type": "object",
        "additionalProperties": False,
        "required": ["node", "count"],
        "properties": {"node": count, "count": count},
    }
    manifest = {
        "type": "object",
        "required": ["apiVersion", "kind", "metadata", "spec"],
        "description": "A Kubernetes object as the API takes it (--format k8s writes it as YAML).",
    }
    return {
        "planSettings": {
            "description": "Ready-to-paste settings for the page size in force (PlanReport.settings); "
            "empty with no page size.",
            "type": "object",
            "anyOf": [
                {"maxProperties": 0},
                {"required": ["assumes", "socket_mem", "eal_args", "nr_hugepages", "kubernetes"]},
            ],
            "additionalProperties": False,
            "properties": {
                "assumes": strings,
                "socket_mem": {"type": "string", "pattern": "^[0-9]+(,[0-9]+)*$"},
                "eal_args": string,
                "nr_hugepages": strings,
                "kubernetes": {"$ref": "#/$defs/kubernetes"},
            },
        },
        "kubernetes": {
            "description": "A pod's hugepages and the node's (mpcalc.service.k8s.kubernetes): each container's "
            "pages per NUMA node, resources (requests equal to limits) and EAL options, the Pod and the "
            "PerformanceProfile's hugepages, the node's pages per NUMA node and size, the warnings.",
            "type": "object",
            "additionalProperties": False,
            "required": ["page_sizes", "containers", "pod", "node", "performance_profile", "warnings", "notes"],
            "properties": {
                "page_sizes": {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 4096}},
                "containers": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["name", "page_size", "pages", "memory_bytes", "eal_args", "resources"],
                        "properties": {
                            "name": string,
                            "page_size": count,
                            "pages": {"type": "array", "items": node_pages},
                            "memory_bytes": {
                                **count,
                                "description": "Ordinary memory mpcalc knows the container holds outside "
                                "hugepages (0: none known; notes say what it cannot know).",
                            },
                            "eal_args": strings,
                            "resources": resources,
                        },
                    },
                },
                "pod": manifest,
                "performance_profile": manifest,
                "node": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["pages", "kernel_cmdline", "kernel_cmdline_note", "nr_hugepages", "capacity"],
                    "properties": {
                        "pages": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "additionalProperties": False,
                                "required": ["node", "size", "page_size", "count"],
                                "properties": {"node": count, "size": string, "page_size": count, "count": count},
                            },
                        },
                        "kernel_cmdline": string,
                        "kernel_cmdline_note": string,
                        "nr_hugepages": strings,
                        "capacity": {
                            "description": "The pages each NUMA node holds per page size (--node-hugepages, "
                            "[platform] node_hugepages), null when not given.",
                            "type": ["array", "null"],
                            "items": {
                                "type": "object",
                                "additionalProperties": False,
                                "required": ["size", "page_size", "pages"],
                                "properties": {
                                    "size": string,
                                    "page_size": count,
                                    "pages": {"type": "array", "minItems": 1, "items": count},
                                },
                            },
                        },
                    },
                },
                "warnings": strings,
                "notes": strings,
            },
        },
    }


def batch_compact() -> dict[str, Any]:
    """``mpcalc batch --compact``: one short answer a line (mpcalc.service.batch.compact_tail)."""
    return {
        "description": "mpcalc batch --compact: a line's answer, per flag combination the object size and totals.",
        "type": "object",
        "additionalProperties": False,
        "required": ["line", "command", "ok", "results"],
        "properties": {
            "line": {"type": "integer", "minimum": 1},
            "command": {"enum": list(registry.NAMES)},
            "ok": {"type": "boolean"},
            "results": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["flags", "object_size", "total_bytes", "heap_bytes", "hugepages", "errors"],
                    "properties": {
                        "flags": {"type": "string", "minLength": 1},
                        "object_size": {"$ref": "#/$defs/nullableBytes"},
                        "total_bytes": {"$ref": "#/$defs/bytes"},
                        "heap_bytes": {"$ref": "#/$defs/bytes"},
                        "hugepages": {"type": ["integer", "null"], "minimum": 0},
                        "errors": {"type": "array", "items": {"type": "string", "pattern": "^(E[A-Z0-9]+|hazard)$"}},
                    },
                },
            },
        },
    }


def batch_error() -> dict[str, Any]:
    """A batch line that could not be answered: where, what, and its exit code (mpcalc.service.batch)."""
    from mpcalc.service.exitcodes import ExitCode

    return {
        "description": "mpcalc batch: a line that is not a request (or failed), and the batch went on.",
        "type": "object",
        "additionalProperties": False,
        "required": ["line", "key", "error", "exit_code"],
        "properties": {
            "line": {"type": "integer", "minimum": 1},
            "key": {"type": ["string", "null"], "description": "The key at fault, if one is."},
            "error": {"type": "string", "minLength": 1},
            "exit_code": {"enum": [int(c) for c in ExitCode]},
        },
    }


def sweep_row() -> dict[str, Any]:
    """``mpcalc sweep --format jsonl``: one row a value and flag combination (mpcalc.service.sweep.COLUMNS), with
    the varied key (a count or size of the object or the platform)."""
    from mpcalc.service.sweep import COLUMNS

    columns = {
        "flags": {"type": "string", "minLength": 1},
        "ok": {"type": "boolean"},
        "object_size": {"$ref": "#/$defs/nullableBytes"},
        "total_bytes": {"$ref": "#/$defs/bytes"},
        "heap_bytes": {"$ref": "#/$defs/bytes"},
        "hugepages": {"type": ["integer", "null"], "minimum": 0},
        "errors": {"type": "string", "description": "The errnos (hazard: a hazard), | between them; empty when ok."},
    }
    assert tuple(columns) == COLUMNS
    varied = sorted(
        {p.key for name in registry.NAMES for p in registry.get(name).params if p.numeric_kind}
        | {p.key for p in PLATFORM_PARAMS if p.numeric_kind}
    )
    return {
        "description": "mpcalc sweep --format jsonl: one value of the varied key and one flag combination.",
        "type": "object",
        "required": list(COLUMNS),
        "properties": columns,
        "propertyNames": {"enum": [*COLUMNS, *varied]},
        "additionalProperties": {"type": "integer", "minimum": 0, "description": "The varied key's value."},
        "minProperties": len(COLUMNS) + 1,
        "maxProperties": len(COLUMNS) + 1,
    }


def _pieces() -> dict[str, Any]:
    """The records every document is made of (mpcalc.dpdk.core.records' ``to_dict``), and a result's kinds."""
    return {
        "bytes": {"type": "integer", "minimum": 0},
        "nullableBytes": {"type": ["integer", "null"], "minimum": 0},
        "flagList": {"type": "array", "uniqueItems": True, "items": {"$ref": "#/$defs/flagName"}},
        "userFlagList": {"type": "array", "uniqueItems": True, "items": {"$ref": "#/$defs/userFlagName"}},
        "platform": {
            "description": "mpcalc.platform.describe().",
            "type": "object",
            "additionalProperties": False,
            "required": [
                "dpdk",
                "arch",
                "cache_line",
                "mempool_align",
                "max_lcore",
                "channels",
                "ranks",
                "spreads",
                "page_size",
                "debug",
                "dpdk_stable_tag",
                "platform",
                "stats",
                "sources",
            ],
            "properties": {
                "dpdk": {"type": "string", "minLength": 1},
                "arch": {"type": "string", "minLength": 1},
                "cache_line": {"type": "integer", "minimum": 1},
                "mempool_align": {"type": "integer", "minimum": 1},
                "max_lcore": {"type": "integer", "minimum": 1},
                "channels": {"type": "integer", "minimum": 1},
                "ranks": {"type": "integer", "minimum": 1, "maximum": 16},
                "spreads": {"type": "boolean"},
                "page_size": {"$ref": "#/$defs/bytes", "description": "0 means no page constraint (--page-size none)."},
                "debug": {"type": "boolean"},
                "dpdk_stable_tag": {
                    "type": "string",
                    "description": "The stable point release modelled, e.g. v22.11.11.",
                },
                "platform": {"type": ["string", "null"], "description": "The named build (--platform), if any."},
                "stats": {"type": "boolean"},
                "sources": {
                    "type": "object",
                    "description": "Where each value came from: default, option, platform <name>, build file <path>.",
                    "additionalProperties": {"type": "string"},
                },
            },
        },
        "error": {
            "description": "A configuration DPDK would refuse (errno set) or mishandle (errno null: a hazard).",
            "type": "object",
            "additionalProperties": False,
            "required": ["errno", "reason", "function", "source"],
            "properties": {
                "errno": {"type": ["string", "null"], "pattern": "^E[A-Z0-9]+$"},
                "reason": {"type": "string", "minLength": 1},
                "function": {"type": "string", "minLength": 1},
                "source": {"type": "string", "minLength": 1},
            },
        },
        "memzone": {
            "description": "A memzone as rte_memzone_dump shows it.",
            "type": "object",
            "additionalProperties": False,
            "required": ["name", "len", "role"],
            "properties": {
                "name": {"type": "string", "minLength": 1},
                "len": {"$ref": "#/$defs/bytes"},
                "role": {"type": "string", "minLength": 1},
                "leaked": {
                    "const": True,
                    "description": "Present only when DPDK reserves the memzone and never frees it.",
                },
            },
        },
        "allocation": {
            "description": "An rte_malloc allocation that is not a memzone: its type string and requested bytes.",
            "type": "object",
            "additionalProperties": False,
            "required": ["name", "size", "role"],
            "properties": {
                "name": {"type": "string", "minLength": 1},
                "size": {"$ref": "#/$defs/bytes"},
                "role": {"type": "string", "minLength": 1},
            },
        },
        "header": {
            "description": "What the header memzone MP_<name> holds.",
            "type": "object",
            "additionalProperties": False,
            "required": ["mempool_struct", "cache_struct", "caches", "private_data"],
            "properties": {
                "mempool_struct": {"$ref": "#/$defs/bytes"},
                "cache_struct": {"$ref": "#/$defs/bytes"},
                "caches": {"$ref": "#/$defs/bytes"},
                "private_data": {"$ref": "#/$defs/bytes"},
            },
        },
        "mempool": {
            "description": "One rte_mempool (mpcalc.model.Mempool.to_dict).",
            "type": "object",
            "additionalProperties": False,
            "required": [
                "name",
                "count",
                "elt_size_requested",
                "cache_size",
                "private_data_size",
                "flags",
                "effective_flags",
                "mp_flags",
                "ops_name",
                "header_size",
                "elt_size",
                "trailer_size",
                "total_size",
                "header",
                "ring_size",
                "objs_per_page",
                "memzones",
                "allocations",
                "total_bytes",
                "errors",
            ],
            "properties": {
                "name": {"type": "string"},
                "count": {"type": "integer", "minimum": 0},
                "elt_size_requested": {"$ref": "#/$defs/bytes"},
                "cache_size": {"type": "integer", "minimum": 0},
                "private_data_size": {"$ref": "#/$defs/bytes"},
                "flags": {"$ref": "#/$defs/flagList"},
                "effective_flags": {"$ref": "#/$defs/userFlagList"},
                "mp_flags": {"type": ["integer", "null"], "minimum": 0},
                "ops_name": {"type": "string", "minLength": 1},
                "header_size": {"$ref": "#/$defs/nullableBytes"},
                "elt_size": {"$ref": "#/$defs/nullableBytes"},
                "trailer_size": {"$ref": "#/$defs/nullableBytes"},
                "total_size": {"$ref": "#/$defs/nullableBytes"},
                "header": {"oneOf": [{"$ref": "#/$defs/header"}, {"type": "null"}]},
                "ring_size": {"type": ["integer", "null"], "minimum": 0},
                "objs_per_page": {"type": ["integer", "null"], "minimum": 0},
                "memzones": {"type": "array", "items": {"$ref": "#/$defs/memzone"}},
                "allocations": {"type": "array", "items": {"$ref": "#/$defs/allocation"}},
                "total_bytes": {"$ref": "#/$defs/bytes"},
                "errors": {"type": "array", "items": {"$ref": "#/$defs/error"}},
            },
        },
        "diffRow": {
            "type": "object",
            "additionalProperties": False,
            "required": ["result", "section", "name", "left", "right", "delta"],
            "properties": {
                "result": {"type": "string"},
                "section": {"enum": ["memzone", "allocation", "total"]},
                "name": {"type": "string"},
                "left": {"$ref": "#/$defs/nullableBytes"},
                "right": {"$ref": "#/$defs/nullableBytes"},
                "delta": {"type": "integer"},
            },
        },
        "planSocket": {
            "type": "object",
            "additionalProperties": False,
            "required": ["socket", "total_bytes", "heap_bytes", "eal_heap", "pages"],
            "properties": {
                "socket": {"type": "integer", "minimum": 0},
                "total_bytes": {"$ref": "#/$defs/bytes"},
                "heap_bytes": {"$ref": "#/$defs/bytes"},
                "eal_heap": {"$ref": "#/$defs/bytes"},
                "pages": {"type": ["integer", "null"], "minimum": 0},
            },
        },
        "result": {
            "description": "Everything one configuration reserves, under one flag combination "
            "(mpcalc.dpdk.core.records.Result.to_dict).",
            "type": "object",
            "additionalProperties": False,
            "required": [
                "kind",
                "flags",
                "effective_flags",
                "mempools",
                "allocations",
                "details",
                "total_bytes",
                "heap_bytes",
                "hugepages",
                "errors",
            ],
            "properties": {
                "kind": {"enum": list(registry.NAMES)},
                "flags": {"$ref": "#/$defs/flagList"},
                "effective_flags": {"$ref": "#/$defs/userFlagList"},
                "mempools": {"type": "array", "items": {"$ref": "#/$defs/mempool"}},
                "memzones": {
                    "description": "Memzones outside any mempool (an object whose "
                    "memzones are its own: a ring's RG_<name>, a hash's "
                    "rings; ObjectDecl.own_zones).",
                    "type": "array",
                    "items": {"$ref": "#/$defs/memzone"},
                },
                "allocations": {"type": "array", "items": {"$ref": "#/$defs/allocation"}},
                "details": {
                    "type": "object",
                    "description": "Kind-specific figures (for a RIB: max_nodes, node_size, ext_size).",
                },
                "total_bytes": {"$ref": "#/$defs/bytes"},
                "heap_bytes": {"$ref": "#/$defs/bytes"},
                "hugepages": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "description": "Pages of platform.page_size the heap spans; null when page_size is 0.",
                },
                "errors": {"type": "array", "items": {"$ref": "#/$defs/error"}},
            },
        },
    }


def report() -> dict[str, Any]:
    """A sizing command's ``--json`` (a full batch line too): mpcalc.service.documents.Report.to_dict."""
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["schema_version", "mpcalc_version", "command", "platform", "input", "results", "notes"],
        "properties": {
            "schema_version": {"const": SCHEMA_VERSION},
            "mpcalc_version": {"type": "string", "minLength": 1},
            "command": {
                "enum": list(registry.NAMES),
                "description": "The sizing command: an object of mpcalc.dpdk.core.registry.",
            },
            "platform": {"$ref": "#/$defs/platform"},
            "input": {
                "type": "object",
                "description": "The command's inputs after parsing; keys depend on the command.",
            },
            "results": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/result"}},
            "notes": {"type": "array", "items": {"type": "string"}},
            "gates": {
                "type": "object",
                "description": "The CI gates (--max-total, --baseline): present only when one was "
                "asked for. The exit code is 3 when ok is false.",
                "additionalProperties": False,
                "required": ["max_total", "baseline", "checks", "ok"],
                "properties": {
                    "max_total": {"type": ["integer", "null"], "minimum": 0},
                    "baseline": {
                        "type": ["object", "null"],
                        "additionalProperties": False,
                        "required": ["file", "tolerance", "mpcalc_version", "platform_differences"],
                        "properties": {
                            "file": {"type": "string"},
                            "tolerance": {"type": "string"},
                            "mpcalc_version": {"type": ["string", "null"]},
                            "platform_differences": {
                                "type": "object",
                                "description": "Platform "
                                "fields "
                                "whose "
                                "value "
                                "differs "
                                "from "
                                "the "
                                "baseline's: "
                                "{baseline, "
                                "now}.",
                                "additionalProperties": {"type": "object", "required": ["baseline", "now"]},
                            },
                        },
                    },
                    "checks": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["gate", "flags", "key", "baseline", "value", "limit", "ok", "message"],
                            "properties": {
                                "gate": {"enum": ["max_total", "baseline"]},
                                "flags": {"type": "string"},
                                "key": {"enum": ["total_bytes", "heap_bytes"]},
                                "baseline": {
                                    "type": ["integer", "null"],
                                    "description": "The baseline's value (null for max_total).",
                                },
                                "value": {"type": "integer"},
                                "limit": {"type": "integer", "description": "The largest value that passes."},
                                "ok": {"type": "boolean"},
                                "message": {"type": "string"},
                            },
                        },
                    },
                    "ok": {"type": "boolean"},
                },
            },
        },
        "description": "One command's report (Report.to_dict).",
        "allOf": [
            {"if": {"properties": {"command": {"const": name}}}, "then": {"properties": {"input": input_schema(name)}}}
            for name in registry.NAMES
        ],
    }


def diff() -> dict[str, Any]:
    """``mpcalc diff --json``: mpcalc.service.documents.DiffReport.to_dict."""
    return {
        "description": "mpcalc diff: the same configuration under two platforms or releases (DiffReport.to_dict).",
        "type": "object",
        "additionalProperties": False,
        "required": ["schema_version", "mpcalc_version", "command", "left", "right", "rows"],
        "properties": {
            "schema_version": {"const": SCHEMA_VERSION},
            "mpcalc_version": {"type": "string"},
            "command": {"const": "diff"},
            "left": {"$ref": "#/$defs/report"},
            "right": {"$ref": "#/$defs/report"},
            "rows": {"type": "array", "items": {"$ref": "#/$defs/diffRow"}},
        },
    }


def plan() -> dict[str, Any]:
    """``mpcalc plan --json``: mpcalc.service.plan.PlanReport.to_dict."""
    return {
        "description": "mpcalc plan FILE (PlanReport.to_dict).",
        "type": "object",
        "additionalProperties": False,
        "required": ["schema_version", "mpcalc_version", "command", "file", "platform", "items", "sockets", "settings"],
        "properties": {
            "schema_version": {"const": SCHEMA_VERSION},
            "mpcalc_version": {"type": "string"},
            "command": {"const": "plan"},
            "file": {"type": "string"},
            "platform": {"$ref": "#/$defs/platform"},
            "items": {"type": "array", "items": {"$ref": "#/$defs/planItem"}},
            "sockets": {"type": "array", "items": {"$ref": "#/$defs/planSocket"}},
            "settings": {"$ref": "#/$defs/planSettings"},
        },
    }


def _plan_item() -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["kind", "name", "socket", "result"],
        "properties": {
            "kind": {"enum": list(registry.NAMES)},
            "name": {"type": "string"},
            "socket": {"type": "integer", "minimum": 0},
            "container": {"type": "string", "description": "The pod's container the plan puts the item in."},
            "page_size": {
                "type": "integer",
                "minimum": 4096,
                "description": "The item's page size, when the plan gives it one ([[...]] page_size).",
            },
            "result": {"$ref": "#/$defs/result"},
        },
    }


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
    decl = registry.get(name)
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


def plan_file() -> dict[str, Any]:
    """The schema of a plan file (TOML, read as JSON would be): [platform] and an array of tables per object."""
    from mpcalc.service.plan import item_params, platform_params, tables

    items = {}
    for table, name in tables().items():
        params = item_params(name)
        required = [k for k, p in params.items() if p.required or p.needed or k == "name"]
        items[table] = {
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
        "description": "A whole application for mpcalc plan: [platform] and one [[table]] per item ("
        + ", ".join(items)
        + "). Keys are the single commands' long options with _ for -.",
        "type": "object",
        "additionalProperties": False,
        "properties": {"platform": {"type": "object", "additionalProperties": False, "properties": platform}, **items},
    }
