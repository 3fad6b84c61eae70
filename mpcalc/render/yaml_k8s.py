"""``--format k8s``: a whole application's ``kubernetes`` block (mpcalc.service.k8s) as YAML to paste: the Pod,
the hugepages part of an OpenShift PerformanceProfile, and as comments the node's pages per NUMA node, the
warnings and what mpcalc cannot know.

The YAML is written here (no YAML library at run time): block style, two-space indents, for the plain types
of the document (dicts, lists, strings, integers, booleans, None).  A string is written plain only when YAML
reads it back as that same string; any other is double-quoted in JSON's escapes, which YAML shares.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, TextIO

from mpcalc.service.k8s import COMMANDS, not_for, of

#: a plain scalar YAML 1.1 and 1.2 both read back as this string: starts with a letter, '/', '_', '.' then a
#: letter, '/' or '_' ('.0' and '.5' are floats), or '-' then a letter or '-' (an option); then letters, digits
#: and ``-_./``
_PLAIN = re.compile(r"^(?:[A-Za-z_/]|\.[A-Za-z_/]|-[-A-Za-z])[A-Za-z0-9_./-]*$")
#: words YAML 1.1 reads as booleans, null, infinity or not-a-number (case-insensitive)
_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", ".inf", ".nan"}


def scalar(value: Any) -> str:
    """One scalar as YAML.

    >>> [scalar(v) for v in ("hugepages-2Mi", "784", "--in-memory", "on", "2M:32M", 16, None, True, "")]
    ['hugepages-2Mi', '"784"', '--in-memory', '"on"', '"2M:32M"', '16', 'null', 'true', '""']
    >>> [scalar(v) for v in (".0", ".Inf", ".nan", ".hidden")]
    ['".0"', '".Inf"', '".nan"', '.hidden']
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if not isinstance(value, str):
        raise TypeError(f"no YAML for {type(value).__name__}")
    if _PLAIN.fullmatch(value) and value.lower() not in _WORDS:  # fullmatch: "$" would pass a final "\n"
        return value
    return '"' + "".join(_char(c) for c in value) + '"'


def _char(c: str) -> str:
    r"""One character in a double-quoted scalar: as itself where YAML prints it (its c-printable, less the line
    breaks U+0085, U+2028, U+2029 and the byte order mark), else escaped.

    >>> print("".join(_char(c) for c in 'a"\\\u2028\x85\U00010000\x07'))
    a\"\\\u2028\x85𐀀\x07
    """
    o = ord(c)
    if c in '"\\':
        return "\\" + c
    if 0x20 <= o <= 0x7E or (0xA0 <= o <= 0xFFFD and o not in (0x2028, 0x2029, 0xFEFF) and not 0xD800 <= o <= 0xDFFF):
        return c
    if 0x10000 <= o <= 0x10FFFF:
        return c
    return f"\\x{o:02x}" if o <= 0xFF else f"\\u{o:04x}" if o <= 0xFFFF else f"\\U{o:08x}"


def lines(value: Any, indent: int = 0) -> Iterator[str]:
    """A dict or list as YAML block lines.

    >>> print("\\n".join(lines({"a": [{"b": 1, "c": ["x"]}], "d": {}, "e": []})))
    a:
    - b: 1
      c:
      - x
    d: {}
    e: []
    """
    pad = " " * indent
    if isinstance(value, Mapping):
        for key, v in value.items():
            k = scalar(str(key))
            if isinstance(v, (Mapping, list)) and v:
                yield f"{pad}{k}:"
                yield from lines(v, indent + (0 if isinstance(v, list) else 2))
            else:
                yield f"{pad}{k}: {_empty(v)}"
    elif isinstance(value, list):
        for v in value:
            if isinstance(v, (Mapping, list)) and v:
                inner = list(lines(v, indent + 2))
                yield f"{pad}- {inner[0][indent + 2 :]}"
                yield from inner[1:]
            else:
                yield f"{pad}- {_empty(v)}"
    else:
        yield pad + scalar(value)


def _empty(v: Any) -> str:
    if isinstance(v, Mapping):
        return "{}"
    if isinstance(v, list):
        return "[]"
    return scalar(v)


def _comment(text: str) -> str:
    return "# " + str(text).replace("\n", " ")


def document(block: Mapping[str, Any], title: str) -> str:
    """One kubernetes block: the comments, the Pod and the PerformanceProfile's hugepages, as a YAML stream."""
    node = block["node"]
    out = [_comment(title)]
    out += [_comment(f"warning: {w}") for w in block["warnings"]]
    out += [_comment(f"note: {n}") for n in block["notes"]]
    out.append(_comment("the node's hugepages, per NUMA node and page size:"))
    out.append(_comment(f"  kernel command line: {node['kernel_cmdline']} ({node['kernel_cmdline_note']})"))
    out += [_comment(f"  {w}") for w in node["nr_hugepages"]]
    out.append("---")
    out += lines(block["pod"])
    out.append("---")
    out.append(
        _comment(
            "OpenShift: the hugepages of the node's PerformanceProfile; merge spec.hugepages into your own "
            "(its spec.cpu and spec.nodeSelector are yours)"
        )
    )
    out += lines(block["performance_profile"])
    return "\n".join(out) + "\n"


def _write(doc: Mapping[str, Any], stream: TextIO) -> None:
    command = str(doc.get("command"))
    if command not in COMMANDS:
        raise not_for(command)
    results = doc.get("results") or [i["result"] for i in doc.get("items", [])]
    refused = [f"{e['errno']}: {e['reason']}" for r in results for e in r["errors"] if e["errno"]]
    blocks = [] if refused else of(doc)
    if not blocks:
        reasons = refused
        stream.write(
            _comment(f"mpcalc {command}: no manifest: " + ("; ".join(reasons) or "no page size (--page-size none)"))
            + "\n"
        )
        return
    platform = doc["platform"]
    title = f"mpcalc {doc['mpcalc_version']} {command}: DPDK {platform['dpdk']} ({platform['dpdk_stable_tag']})"
    stream.write("".join(document(b, title) for b in blocks))  # each begins with its comments and ---


def render(report: Any, stream: TextIO, fmt: str = "k8s") -> None:
    _write(report.to_dict(), stream)


render_plan = render_diff = render
