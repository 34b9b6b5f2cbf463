"""``import FILE.jsonl``: load an estate from JSON Lines, one object a line with its ``kind``.

Lines are read as a stream (constant memory whatever the file's size) and grouped into batches
of consecutive lines of one kind, which go through the same validation and upsert as the API's
batches, each in its own transaction. A line that fails is reported with its number and left
out; the rest of its batch is written. Every object is keyed on its reference, so running the
same file again is the resume: what was written is found unchanged (or updated), what failed
is tried again.
"""

import json
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from portal.i18n import gettext
from portal.provider.cli.import_files import FileProblem, FileRef, take_files
from portal.provider.cli.progress import Progress
from portal.provider.integration.batch import Kind, upsert
from portal.provider.integration.kinds import BY_NAME, BY_PATH
from portal.provider.platform.errors import ApiError
from portal.provider.platform.models import AuditLog

DEFAULT_BATCH = 500
SAMPLE_BATCH = 10_000
COLUMNS = ("created", "updated", "unchanged", "failed")


@dataclass
class Line:
    number: int
    data: dict[str, Any]
    files: list[FileRef]


@dataclass
class Report:
    counts: dict[str, dict[str, int]] = field(
        default_factory=lambda: defaultdict(lambda: dict.fromkeys(COLUMNS, 0))
    )
    failures: list[tuple[int, str, str]] = field(default_factory=list)
    lines: int = 0

    def fail(self, kind: str, number: int, where: str, message: str) -> None:
        self.counts[kind]["failed"] += 1
        self.failures.append((number, where, message))


def count_lines(path: Path) -> int:
    """Lines in the file, read in blocks: the progress bar's total, in constant memory."""
    total, last = 0, b"\n"
    with path.open("rb") as stream:
        while block := stream.read(1 << 20):
            total += block.count(b"\n")
            last = block[-1:]
    return total + (last != b"\n")


def _read(path: Path) -> Iterator[tuple[int, str]]:
    with path.open(encoding="utf-8-sig") as stream:
        yield from enumerate(stream, start=1)


class Importer:
    def __init__(self, engine: Engine, source: Path, batch_size: int = DEFAULT_BATCH) -> None:
        self.engine = engine
        self.source = source
        self.batch_size = batch_size
        self.report = Report()

    def run(self, progress: Progress) -> Report:
        pending: list[Line] = []
        current: Kind[Any] | None = None
        for number, text in _read(self.source):
            self.report.lines += 1
            parsed = self._parse(number, text)
            if parsed is None:
                progress.advance(1)
                continue
            kind, line = parsed
            if current is not None and (kind is not current or len(pending) >= self._size(kind)):
                self._flush(current, pending, progress)
                pending = []
            current = kind
            pending.append(line)
        if pending and current is not None:
            self._flush(current, pending, progress)
        return self.report

    def _size(self, kind: Kind[Any]) -> int:
        size = SAMPLE_BATCH if kind.name == "sample" else self.batch_size
        return min(size, kind.limit)

    def _parse(self, number: int, text: str) -> tuple[Kind[Any], Line] | None:
        if not text.strip():
            return None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            self.report.fail("(unreadable)", number, "", f"not valid JSON: {error.msg}")
            return None
        if not isinstance(data, dict):
            self.report.fail("(unreadable)", number, "", "a line must be a JSON object")
            return None
        name = data.pop("kind", None)
        kind = (BY_NAME.get(name) or BY_PATH.get(name)) if isinstance(name, str) else None
        if kind is None:
            known = ", ".join(BY_NAME)
            self.report.fail("(unreadable)", number, "kind", f"should be one of {known}")
            return None
        try:
            files = take_files(kind.name, data, self.source.parent)
        except FileProblem as problem:
            self.report.fail(kind.path, number, problem.field, str(problem))
            return None
        return kind, Line(number, data, files)

    def _flush(self, kind: Kind[Any], lines: list[Line], progress: Progress) -> None:
        """Write the batch; lines with violations are reported and left out, then the rest of
        the batch is tried again (each try drops at least one line, so this ends)."""
        remaining = lines
        with Session(self.engine) as db:
            while remaining:
                try:
                    result = upsert(db, kind, [line.data for line in remaining])
                    db.add(self._audit(kind, result.model_dump()))
                    db.commit()
                except ApiError as error:
                    db.rollback()
                    remaining = self._drop_failed(kind, remaining, error)
                    continue
                except IntegrityError as error:
                    db.rollback()
                    for line in remaining:
                        self.report.fail(kind.path, line.number, "", str(error.orig))
                    break
                tally = self.report.counts[kind.path]
                for column in ("created", "updated", "unchanged"):
                    tally[column] += getattr(result, column)
                self._store_files(db, kind, remaining)
                break
        progress.advance(len(lines))

    def _drop_failed(self, kind: Kind[Any], lines: list[Line], error: ApiError) -> list[Line]:
        if error.status != 422 or not error.violations:
            for line in lines:
                message = gettext("en", error.message, **error.params)
                self.report.fail(kind.path, line.number, "", message)
            return []
        failed: set[int] = set()
        for violation in error.violations:
            index, _, where = violation.property_path.removeprefix("[").partition("]")
            position = int(index)
            message = gettext("en", violation.message, **violation.params)
            if position not in failed:
                self.report.counts[kind.path]["failed"] += 1
            failed.add(position)
            self.report.failures.append((lines[position].number, where.lstrip("."), message))
        return [line for position, line in enumerate(lines) if position not in failed]

    def _store_files(self, db: Session, kind: Kind[Any], lines: list[Line]) -> None:
        for line in lines:
            for ref in line.files:
                try:
                    stored = ref.store(
                        db, line.data["reference"], ref.path.name, ref.path.read_bytes()
                    )
                    db.commit()
                except ApiError as error:
                    db.rollback()
                    message = gettext("en", error.message, **error.params)
                    details = [gettext("en", v.message, **v.params) for v in error.violations]
                    self.report.fail("file", line.number, ref.field, " ".join([message, *details]))
                    continue
                self.report.counts["file"][stored.status] += 1

    def _audit(self, kind: Kind[Any], counts: dict[str, Any]) -> AuditLog:
        detail = {key: counts[key] for key in ("received", "created", "updated", "unchanged")}
        return AuditLog(
            action=f"import.{kind.path}",
            detail={**detail, "file": str(self.source), "via": "cli"},
        )


def summary(report: Report, elapsed: float) -> list[str]:
    """The table of counts per kind and every failure with its line number."""
    rate = report.lines / elapsed if elapsed > 0 else 0.0
    lines = [f"{report.lines} lines in {elapsed:.1f} s ({rate:,.0f} lines/s)", ""]
    lines.append(f"  {'kind':<14}" + "".join(f"{column:>11}" for column in COLUMNS))
    for kind, counts in report.counts.items():
        lines.append(f"  {kind:<14}" + "".join(f"{counts[column]:>11}" for column in COLUMNS))
    if report.failures:
        count = len(report.failures)
        lines += ["", f"{count} problem{'s' if count > 1 else ''}:"]
        for number, where, message in sorted(report.failures):
            lines.append(f"  line {number}: {where + ': ' if where else ''}{message}")
    return lines


def import_file(engine: Engine, source: Path, batch_size: int = DEFAULT_BATCH) -> Report:
    started = time.monotonic()
    progress = Progress(count_lines(source), "lines")
    report = Importer(engine, source, batch_size).run(progress)
    progress.close()
    print("\n".join(summary(report, time.monotonic() - started)))
    return report
