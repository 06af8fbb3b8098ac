"""The store's schema: its tables (SQLModel), its views, and the primitives that
write rows into them, shared by the store and its migrations."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Integer,
    LargeBinary,
    UniqueConstraint,
    insert,
)
from sqlmodel import Field, Session, SQLModel, col, select


class StoreError(Exception):
    """The database can't be used: a bad URL, a newer schema. One line for the user."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# -- tables ---------------------------------------------------------------------------------


class Meta(SQLModel, table=True):
    __tablename__ = "meta"
    key: str = Field(primary_key=True)
    value: str


class EraRow(SQLModel, table=True):
    __tablename__ = "era"
    id: str = Field(primary_key=True)
    name: str
    aliases: str  # JSON list
    began: str
    ended: str | None = None
    cr_modelled: str
    summary: str
    changes: str  # JSON list
    sources: str  # JSON list


class BatchRow(SQLModel, table=True):
    """A stored batch (one transaction): when its rows were stored. The rows name their
    batch instead of each carrying a timestamp."""

    __tablename__ = "batch"
    batch_id: int | None = Field(default=None, primary_key=True)
    stored: str


# A scenario key is a 64-bit integer (see `packing.scenario_key`): PostgreSQL's BIGINT,
# SQLite's INTEGER, whose primary key is then the rowid itself (no second index).
_KEY = BigInteger().with_variant(Integer(), "sqlite")


def _key_column(*references: str, primary: bool = False) -> Any:
    if primary:
        return Column(_KEY, primary_key=True, autoincrement=False)
    return Column(_KEY, ForeignKey(*references), nullable=False)


class ScenarioRow(SQLModel, table=True):
    """One version of a scenario: its canonical JSON (packed), keyed by the hash of it."""

    __tablename__ = "scenario"
    scenario_key: int = Field(sa_column=_key_column(primary=True))
    content_hash: bytes = Field(sa_column=Column(LargeBinary, nullable=False))  # SHA-256
    id: str = Field(index=True)
    title: str
    tags: str  # JSON list
    sources: str  # JSON list
    packed_json: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    batch_id: int = Field(foreign_key="batch.batch_id")


class RunRow(SQLModel, table=True):
    """One era's outcome of a scenario version, by an engine version: the outcome JSON
    packed, and in plain columns what SQL reads of it (life, who lost, zones)."""

    __tablename__ = "run"
    __table_args__ = (UniqueConstraint("scenario_key", "era", "engine_version"),)
    run_id: int | None = Field(default=None, primary_key=True)
    scenario_key: int = Field(sa_column=_key_column("scenario.scenario_key"))
    era: str = Field(foreign_key="era.id")
    engine_version: str
    packed_outcome: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    life: str | None = None  # JSON {player: life}; None where a game has no life
    losers: str | None = None  # JSON list of the players who lost
    zones: str | None = None  # JSON {zone: [permanents]}
    batch_id: int = Field(foreign_key="batch.batch_id")


class DivergenceRow(SQLModel, table=True):
    """A field on which two eras' outcomes of a scenario version differ. Keyed by what it
    is (on SQLite the key is the table: one B-tree, not a table and its index)."""

    __tablename__ = "divergence"
    __table_args__ = {"sqlite_with_rowid": False}
    scenario_key: int = Field(sa_column=Column(_KEY, ForeignKey("scenario.scenario_key"),
                                               primary_key=True, autoincrement=False))
    engine_version: str = Field(primary_key=True)
    era_a: str = Field(foreign_key="era.id", primary_key=True)
    era_b: str = Field(foreign_key="era.id", primary_key=True)
    path: str = Field(primary_key=True)
    value_a: str | None  # JSON
    value_b: str | None  # JSON


class SourceFileRow(SQLModel, table=True):
    """A scenario file as this rulesdiff read it: the digest of its bytes, with the engine
    version and the card library it was read with, and the scenario version it gave. A
    rebuild finds a file stored without parsing it again. Stored with the file's runs, in
    the same transaction."""

    __tablename__ = "source_file"
    __table_args__ = {"sqlite_with_rowid": False}  # the digest is the key: one B-tree, not two
    digest: bytes = Field(sa_column=Column(LargeBinary, primary_key=True))
    scenario_key: int = Field(sa_column=_key_column("scenario.scenario_key"))
    refused: str  # JSON list: the eras of its game that refused it, when it was run


# The newest run of each scenario (by id) and era: what "latest" means everywhere. With
# the first run of each, for the order in which the pairs were first stored.
_PER_ID_AND_ERA = ("FROM run n JOIN scenario ns ON ns.scenario_key = n.scenario_key "
                   "GROUP BY ns.id, n.era")
NEWEST = f"SELECT MAX(n.run_id) {_PER_ID_AND_ERA}"
NEWEST_AND_FIRST = f"SELECT MAX(n.run_id) AS newest, MIN(n.run_id) AS first_run {_PER_ID_AND_ERA}"

# The same three views on both databases; only JSON access is spelt per dialect.
VIEWS = {
    # Only the divergences of each scenario's newest runs: "latest" means the same here as
    # in export and latest_outcomes.
    "divergences_by_era_pair": f"""
        SELECT d.era_a, d.era_b, COUNT(DISTINCT s.id) AS scenarios, COUNT(*) AS fields
        FROM divergence d JOIN scenario s ON s.scenario_key = d.scenario_key
        WHERE EXISTS (SELECT 1 FROM run r
                      WHERE r.run_id IN ({NEWEST})
                        AND r.scenario_key = d.scenario_key
                        AND r.engine_version = d.engine_version)
        GROUP BY d.era_a, d.era_b ORDER BY d.era_a, d.era_b""",
    "survives_in_one_era": {
        "sqlite": f"""
        SELECT s.id AS scenario_id, p.value AS permanent,
               MAX(CASE WHEN z.key = 'battlefield' THEN r.era END) AS surviving_era
        FROM run r JOIN scenario s ON s.scenario_key = r.scenario_key,
             json_each(r.zones) z, json_each(z.value) p
        WHERE r.run_id IN ({NEWEST})
        GROUP BY s.id, p.value
        HAVING SUM(z.key = 'battlefield') = 1 AND COUNT(*) > 1""",
        "postgresql": f"""
        SELECT s.id AS scenario_id, p.value AS permanent,
               MAX(CASE WHEN z.key = 'battlefield' THEN r.era END) AS surviving_era
        FROM run r JOIN scenario s ON s.scenario_key = r.scenario_key,
             jsonb_each(r.zones::jsonb) z, jsonb_array_elements_text(z.value) p
        WHERE r.run_id IN ({NEWEST})
        GROUP BY s.id, p.value
        HAVING SUM(CASE WHEN z.key = 'battlefield' THEN 1 ELSE 0 END) = 1
           AND COUNT(*) > 1""",
    },
    "latest_outcomes": f"""
        SELECT s.id AS scenario_id, r.era, r.engine_version, b.stored AS created,
               r.life, r.losers, r.zones
        FROM run r JOIN scenario s ON s.scenario_key = r.scenario_key
             JOIN batch b ON b.batch_id = r.batch_id
        WHERE r.run_id IN ({NEWEST})""",
}


def view_sql(name: str, dialect: str) -> str | None:
    """A view's SQL for this database, or None where it has no spelling for it."""
    sql = VIEWS[name]
    return sql if isinstance(sql, str) else sql.get(dialect)


class ExplorationRow(SQLModel, table=True):
    """One era's exploration of a scenario version (explore contract §6.6)."""

    __tablename__ = "exploration"
    __table_args__ = (UniqueConstraint("scenario_key", "era", "engine_version", "objective",
                                       "fields", "blocks"),)
    exploration_id: int | None = Field(default=None, primary_key=True)
    scenario_key: int = Field(sa_column=_key_column("scenario.scenario_key"))
    scenario_id: str = Field(index=True)
    era: str = Field(foreign_key="era.id")
    engine_version: str
    objective: str
    fields: str
    blocks: str
    lines: int
    outcomes: int
    value_json: str  # {"score", "state", "line"}
    result_json: str  # the era's whole result, as in the explore JSON
    created: str


class GenerationRow(SQLModel, table=True):
    """How generated scenarios were made (`dataset generate`): stored when a generated
    folder is built, so a dataset says what distribution its scenarios come from."""

    __tablename__ = "generation"
    __table_args__ = (UniqueConstraint("generator", "seed", "count", "parameters_hash"),)
    generation_id: int | None = Field(default=None, primary_key=True)
    generator: int
    seed: int
    count: int
    parameters_json: str
    parameters_hash: str
    stored: str


class RuleDocumentRow(SQLModel, table=True):
    """A rules document the user imported (`rules import`): the texts are the publisher's,
    never shipped; keyed by the hash of the text, so importing it again adds nothing."""

    __tablename__ = "rule_document"
    document_id: int | None = Field(default=None, primary_key=True)
    content_hash: str = Field(unique=True)
    effective: str  # YYYY-MM-DD, as the document says
    name: str  # the file it was imported from
    imported: str
    # Which game's rules, and which kind of document (comparator.rules_document.KINDS).
    game: str = Field(default="mtg", sa_column_kwargs={"server_default": "mtg"})
    kind: str = Field(default="Comprehensive Rules",
                      sa_column_kwargs={"server_default": "Comprehensive Rules"})
    # Imported from an archive of every release (`rules import --git`, a folder): the
    # release's name ("Magic 2010 (M10)"), which archive, and its place in it. Two
    # documents one place apart in one archive are consecutive releases, so a change
    # between them is dated to the later one exactly.
    release: str | None = None
    archive: str | None = None
    position: int | None = None


class RuleTextRow(SQLModel, table=True):
    """One numbered rule of an imported document, with the headings above it."""

    __tablename__ = "rule_text"
    __table_args__ = (UniqueConstraint("document_id", "number"),)
    rule_id: int | None = Field(default=None, primary_key=True)
    document_id: int = Field(foreign_key="rule_document.document_id", index=True)
    number: str = Field(index=True)
    text: str
    section: str
    title: str


class GlossaryRow(SQLModel, table=True):
    """One glossary entry of an imported document."""

    __tablename__ = "rule_glossary"
    __table_args__ = (UniqueConstraint("document_id", "term"),)
    entry_id: int | None = Field(default=None, primary_key=True)
    document_id: int = Field(foreign_key="rule_document.document_id", index=True)
    term: str = Field(index=True)
    text: str


# -- writing rows ---------------------------------------------------------------------------


def insert_ignore(session: Session, model: type[SQLModel], rows: list[dict[str, Any]]) -> int:
    """Insert the rows not stored yet; how many that was (-1 where the driver can't say)."""
    if not rows:
        return 0
    dialect = session.connection().dialect.name
    if dialect not in ("sqlite", "postgresql"):
        for row in rows:
            session.merge(model(**row))
        return -1
    # One plain statement that both databases understand, handed with all the rows to the
    # driver's executemany as they are: none of the ORM's per-row work, nor SQLAlchemy's
    # binding of each row's parameters (half of the writing process's time in a build).
    columns = list(rows[0])
    marker = "%({})s" if dialect == "postgresql" else ":{}"  # each driver's own style
    sql = (f"INSERT INTO {model.__tablename__} ({', '.join(columns)}) "
           f"VALUES ({', '.join(marker.format(c) for c in columns)}) ON CONFLICT DO NOTHING")
    done = session.connection().exec_driver_sql(sql, rows)  # type: ignore[arg-type]
    return int(getattr(done, "rowcount", -1))


def new_batch(session: Session, stored: str | None = None) -> int:
    """A batch row for the rows this transaction stores: its number. (The key as the
    driver reports it, not RETURNING, which SQLite has only from 3.35.)"""
    done = session.execute(insert(BatchRow).values(stored=stored or now()))
    return int(done.inserted_primary_key[0])


def check_keys(session: Session, scenarios: list[dict[str, Any]]) -> None:
    """Refuse to store a scenario version whose key another version has (two SHA-256s
    alike in their first 64 bits): its runs would be taken for the other's."""
    mine = {row["scenario_key"]: row["content_hash"] for row in scenarios}
    keys = sorted(mine)
    for i in range(0, len(keys), 500):
        stored = session.execute(select(ScenarioRow.scenario_key, ScenarioRow.content_hash)
                                 .where(col(ScenarioRow.scenario_key).in_(keys[i:i + 500])))
        for key, content_hash in stored:
            if bytes(content_hash) != mine[key]:
                raise StoreError(f"scenario version {mine[key].hex()[:12]} has the key of "
                                 f"the stored version {bytes(content_hash).hex()[:12]}: "
                                 f"it can't be stored beside it")
