"""libosinfo database folders for tests: OS files written as osinfo-db writes them, under os/, with a VERSION."""

from __future__ import annotations

from pathlib import Path


def os_file(short_id: str, body: str = "", os_id: str | None = None) -> str:
    os_id = os_id or f"http://example.org/{short_id}"
    return (f'<?xml version="1.0"?>\n<libosinfo version="0.0.1">\n  <os id="{os_id}">\n'
            f"    <short-id>{short_id}</short-id>\n    <name>{short_id}</name>\n{body}  </os>\n</libosinfo>\n")


def database(root: Path, files: dict[str, str | bytes], version: str = "20240101") -> Path:
    """A database folder holding ``files`` under os/ (paths relative to it) and a VERSION."""
    (root / "os").mkdir(parents=True)
    (root / "VERSION").write_text(version)
    for relative, content in files.items():
        path = root / "os" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return root
