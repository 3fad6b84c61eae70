"""The schema of ``mpcalc inspect --json`` (mpcalc.inspect.dump_report), one document of
mpcalc.service.schema.DOCUMENTS."""

from __future__ import annotations

from typing import Any

from mpcalc.dpdk.core.records import SCHEMA_VERSION
from mpcalc.inspect.parse_trace import FORMAT as TRACE_FORMAT


def document() -> dict[str, Any]:
    """A live DPDK's dumps against mpcalc's model (the pools, the other memzones, the totals, an application)."""
    return {
        "description": "A live DPDK's dumps (rte_mempool_dump, rte_memzone_dump, telemetry /mempool/*) against "
        "mpcalc's model.",
        "type": "object",
        "additionalProperties": False,
        "required": [
            "schema_version",
            "mpcalc_version",
            "command",
            "input",
            "pools",
            "other_memzones",
            "totals",
            "advice",
            "notes",
        ],
        "properties": {
            "schema_version": {"const": SCHEMA_VERSION},
            "mpcalc_version": {"type": "string"},
            "command": {"const": "inspect"},
            "input": {
                "type": "object",
                "additionalProperties": False,
                "required": ["file", "lines", "formats", "skipped_lines", "skipped", "listed_pools"],
                "properties": {
                    "file": {"type": "string"},
                    "lines": {"type": "integer"},
                    "formats": {
                        "type": "array",
                        "items": {
                            "enum": ["mempool_dump", "proc_info_summary", "memzone_dump", "telemetry", TRACE_FORMAT]
                        },
                    },
                    "skipped_lines": {"type": "integer", "minimum": 0},
                    "skipped": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["line", "text"],
                            "properties": {"line": {"type": "integer"}, "text": {"type": "string"}},
                        },
                    },
                    "listed_pools": {"type": "array", "items": {"type": "string"}},
                },
            },
            "pools": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": [
                        "name",
                        "sources",
                        "recovered",
                        "platform",
                        "object",
                        "memzones",
                        "modelled_bytes",
                        "measured_bytes",
                        "modelled_bytes_of_measured",
                        "unexplained_bytes",
                        "explained",
                        "total_bytes",
                        "causes",
                        "advice",
                        "notes",
                    ],
                    "properties": {
                        "name": {"type": "string"},
                        "sources": {
                            "type": "array",
                            "items": {"enum": ["mempool_dump", "proc_info", "telemetry", TRACE_FORMAT]},
                        },
                        "recovered": {
                            "type": "object",
                            "required": [
                                "count",
                                "elt_size",
                                "elt_size_range",
                                "cache_size",
                                "private_data_size",
                                "flags",
                                "flags_mask",
                                "ops_name",
                                "populated_size",
                                "nb_mem_chunks",
                                "dpdk",
                                "dpdk_candidates",
                                "arch",
                                "cache_line",
                                "channels",
                                "ranks",
                                "max_lcore",
                                "page_size",
                                "debug",
                                "stats",
                                "sources",
                            ],
                            "additionalProperties": False,
                            "properties": {
                                "count": {"type": "integer", "minimum": 0},
                                "elt_size": {"type": "integer"},
                                "elt_size_range": {
                                    "type": "array",
                                    "items": {"type": "integer"},
                                    "minItems": 2,
                                    "maxItems": 2,
                                },
                                "cache_size": {"type": ["integer", "null"]},
                                "private_data_size": {"type": ["integer", "null"]},
                                "flags": {"type": "array", "items": {"type": "string"}},
                                "flags_mask": {"type": "integer"},
                                "ops_name": {"type": ["string", "null"]},
                                "populated_size": {"type": ["integer", "null"]},
                                "nb_mem_chunks": {"type": ["integer", "null"]},
                                "dpdk": {"type": "string"},
                                "dpdk_candidates": {"type": "array", "items": {"type": "string"}},
                                "arch": {"type": "string"},
                                "cache_line": {"enum": [64, 128]},
                                "channels": {"type": "integer", "minimum": 1},
                                "ranks": {"type": "integer", "minimum": 1},
                                "max_lcore": {"type": "integer", "minimum": 1},
                                "page_size": {"type": "integer", "minimum": 0},
                                "debug": {"type": "boolean"},
                                "stats": {"type": "boolean"},
                                "sources": {
                                    "type": "object",
                                    "additionalProperties": {"type": "string"},
                                    "required": [
                                        "dpdk",
                                        "cache_line",
                                        "channels",
                                        "max_lcore",
                                        "page_size",
                                        "debug",
                                        "stats",
                                    ],
                                },
                            },
                        },
                        "platform": {"type": "object"},
                        "object": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["name", "modelled", "measured", "delta"],
                                "additionalProperties": False,
                                "properties": {
                                    "name": {"enum": ["header_size", "elt_size", "trailer_size", "total_size"]},
                                    "modelled": {"type": ["integer", "null"]},
                                    "measured": {"type": ["integer", "null"]},
                                    "delta": {"type": ["integer", "null"]},
                                },
                            },
                            "minItems": 4,
                            "maxItems": 4,
                        },
                        "memzones": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["name", "role", "modelled", "measured", "delta", "how"],
                                "additionalProperties": False,
                                "properties": {
                                    "name": {"type": "string"},
                                    "role": {"enum": ["header", "ring", "stack", "objects", "anonymous"]},
                                    "modelled": {"type": "integer", "minimum": 0},
                                    "measured": {"type": ["integer", "null"]},
                                    "delta": {"type": ["integer", "null"]},
                                    "how": {"type": "string"},
                                },
                            },
                        },
                        "modelled_bytes": {"type": "integer"},
                        "measured_bytes": {"type": ["integer", "null"]},
                        "modelled_bytes_of_measured": {"type": "integer"},
                        "unexplained_bytes": {
                            "type": "integer",
                            "description": "measured minus "
                            "modelled over the "
                            "measured memzones; "
                            "0 when the model "
                            "explains the dump",
                        },
                        "explained": {"type": "boolean"},
                        "total_bytes": {"type": "integer"},
                        "causes": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["kind", "values", "text"],
                                "properties": {
                                    "kind": {"type": "string"},
                                    "values": {"type": "array"},
                                    "changes": {"type": "array"},
                                    "text": {"type": "string", "minLength": 1},
                                },
                            },
                        },
                        "advice": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": [
                                    "key",
                                    "change",
                                    "saves_bytes",
                                    "saves_percent",
                                    "total_bytes_after",
                                    "note",
                                    "rank",
                                ],
                                "additionalProperties": False,
                                "properties": {
                                    "key": {
                                        "type": "string",
                                        "pattern": "^(flag|cache|count|page|data_room|max_routes|max_nodes):",
                                    },
                                    "change": {"type": "string"},
                                    "saves_bytes": {"type": "integer", "minimum": 0},
                                    "saves_percent": {"type": "number"},
                                    "total_bytes_after": {"type": "integer"},
                                    "note": {"type": "string"},
                                    "rank": {"type": "integer", "minimum": 1},
                                },
                            },
                        },
                        "notes": {"type": "array", "items": {"type": "string"}},
                        "kind": {
                            "description": "How the pool was created "
                            "(rte_mempool_create, "
                            "rte_pktmbuf_pool_create, "
                            "rte_rib_create, "
                            "rte_rib6_create), from what, and "
                            "the levers its caller has.",
                            "type": ["object", "null"],
                            "required": ["creator", "why", "levers"],
                            "properties": {
                                "creator": {"type": "string"},
                                "why": {"type": "string"},
                                "owner": {"type": ["string", "null"]},
                                "fib": {"type": "boolean"},
                                "levers": {"type": "array", "items": {"type": "string"}},
                            },
                        },
                    },
                },
            },
            "other_memzones": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "len", "line"],
                    "additionalProperties": False,
                    "properties": {
                        "name": {"type": "string"},
                        "len": {"type": "integer"},
                        "line": {"type": "integer"},
                        "object": {
                            "description": "The object the "
                            "memzone belongs to "
                            "(mpcalc.inspect.tables): "
                            "ring, hash, lpm6 or "
                            "pool.",
                            "enum": ["ring", "hash", "lpm6", "pool"],
                        },
                        "text": {"type": "string"},
                        "modelled": {"type": ["integer", "null"]},
                        "explained": {"type": ["boolean", "null"]},
                    },
                },
            },
            "totals": {
                "type": "object",
                "additionalProperties": False,
                "required": [
                    "pools",
                    "modelled_bytes",
                    "measured_bytes",
                    "modelled_bytes_of_measured",
                    "unexplained_bytes",
                    "explained_pools",
                    "other_memzone_bytes",
                ],
                "properties": {
                    "pools": {"type": "integer"},
                    "modelled_bytes": {"type": "integer"},
                    "measured_bytes": {"type": ["integer", "null"]},
                    "modelled_bytes_of_measured": {"type": "integer"},
                    "unexplained_bytes": {"type": "integer"},
                    "explained_pools": {"type": "integer"},
                    "other_memzone_bytes": {"type": "integer"},
                },
            },
            "advice": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["key", "change", "saves_bytes", "saves_percent", "pools", "note", "rank"],
                    "additionalProperties": False,
                    "properties": {
                        "key": {"type": "string"},
                        "change": {"type": "string"},
                        "saves_bytes": {"type": "integer", "minimum": 0},
                        "saves_percent": {"type": "number"},
                        "pools": {"type": "array", "items": {"type": "string"}},
                        "note": {"type": "string"},
                        "rank": {"type": "integer"},
                    },
                },
            },
            "notes": {"type": "array", "items": {"type": "string"}},
            "application": {
                "description": "mpcalc inspect DUMP -- COMMAND LINE: every dumped memzone "
                "against mpcalc app of the command line, grouped by owner, "
                "and the heap.",
                "type": "object",
                "required": ["command_line", "rows", "counts", "groups", "heap", "explained"],
                "properties": {
                    "command_line": {"type": "array", "items": {"type": "string"}},
                    "rows": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["name", "status", "dumped", "modelled", "owner"],
                            "properties": {"status": {"enum": ["matched", "differs", "extra", "missing"]}},
                        },
                    },
                    "counts": {"type": "object"},
                    "groups": {"type": "array", "items": {"type": "object"}},
                    "heap": {"type": ["object", "null"]},
                    "explained": {"type": "boolean"},
                },
            },
        },
    }
