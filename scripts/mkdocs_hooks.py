"""mkdocs hooks (mkdocs.yml `hooks:`): the docs' links to the repository's own files.

A page of docs/ links to files beside docs/ as GitHub shows them (``../ARCHITECTURE.md``,
``../examples/images/sweep-pool.svg``). mkdocs looks for link targets among the files of docs/ alone, so each
such file that exists in the repository is added to the site, as it is, under ``repo/``: the link resolves, the
picture shows, and a link to a file that does not exist (or lies outside the repository) is still a broken link
that fails ``mkdocs build --strict``.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files, InclusionLevel

#: a Markdown link or image target: ](target) or ](target#anchor)
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)\s]*)?\)")


class RepoFile(File):
    """A file of the repository outside docs/, copied into the site as it is (never rendered as a page)."""

    def is_documentation_page(self) -> bool:
        return False

    def is_static_page(self) -> bool:
        return False


def outer_targets(files: Files, docs: Path) -> set[str]:
    """The link targets of docs/'s pages that leave docs/ for a file of the repository, relative to docs/."""
    root = docs.parent
    found = set()
    for page in files.documentation_pages():
        for target in LINK.findall(Path(page.abs_src_path or "").read_text(encoding="utf-8")):
            if ":" in target or target.startswith("/"):
                continue  # a URL, or an absolute path: mkdocs judges those itself
            uri = posixpath.normpath(posixpath.join(posixpath.dirname(page.src_uri), target))
            path = (docs / uri).resolve()
            if uri.startswith("../") and path.is_file() and path.is_relative_to(root):
                found.add(uri)
    return found


def on_files(files: Files, config: Any) -> Files:
    docs = Path(config["docs_dir"]).resolve()
    for uri in sorted(outer_targets(files, docs)):
        rel = (docs / uri).resolve().relative_to(docs.parent).as_posix()
        files.append(
            RepoFile(
                uri, str(docs), config["site_dir"], False, dest_uri=f"repo/{rel}", inclusion=InclusionLevel.INCLUDED
            )
        )
    return files
