"""A request the workbench refuses: the HTTP status and one line for the user (the field
named, as the command line names it), sent as ``{"error": ..., "problems": [...]}``."""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    def __init__(self, status: int, message: str,
                 problems: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.problems = problems or []

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.message}
        if self.problems:
            out["problems"] = self.problems
        return out
