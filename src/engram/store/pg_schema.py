"""The PostgreSQL schema: numbered migration steps (run by engram.store.migrations.run).

Never edit a released step: append one. The schema's tables: items (with a folded copy of the
searched fields), the keyword index (engram.store.keyword), vectors (pgvector, untyped: the
dimension belongs to the embedder), vectors staged by a reindex, settings, per-subject change
counters.
"""

from __future__ import annotations

from engram.store import migrations

#: Percent of each `items` page filled by inserts: the rest is room for HOT updates of access counts.
ITEMS_FILLFACTOR = 80

MIGRATIONS: list[migrations.Step] = [
    (
        "items, keyword index, vectors, settings",
        [
            """CREATE TABLE items (
                seq bigserial PRIMARY KEY,
                id text NOT NULL UNIQUE,
                subject text NOT NULL,
                kind text NOT NULL,
                text text NOT NULL,
                source text NOT NULL DEFAULT '',
                agent text NOT NULL DEFAULT '',
                key text,
                category text,
                session text,
                created_at double precision NOT NULL,
                event_at double precision NOT NULL,
                valid_from double precision NOT NULL,
                valid_to double precision,
                superseded_by text,
                confidence double precision NOT NULL DEFAULT 1.0,
                importance double precision NOT NULL DEFAULT 0.5,
                access_count integer NOT NULL DEFAULT 0,
                last_accessed double precision,
                content_hash text NOT NULL,
                dedupe text,
                metadata jsonb NOT NULL DEFAULT '{}',
                tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED
            )""",
            "CREATE INDEX items_subject_event ON items(subject, event_at)",
            "CREATE INDEX items_subject_kind ON items(subject, kind)",
            "CREATE INDEX items_hash ON items(content_hash)",
            "CREATE INDEX items_tsv ON items USING gin(tsv)",
            "CREATE UNIQUE INDEX items_dedupe ON items(subject, dedupe)"
            " WHERE dedupe IS NOT NULL AND valid_to IS NULL",
            "CREATE UNIQUE INDEX items_current_key ON items(subject, kind, key)"
            " WHERE key IS NOT NULL AND valid_to IS NULL",
            # Untyped `vector`: the dimension belongs to the embedder, not to the schema. The item id
            # is repeated here so a subject's matrix is read without a join.
            """CREATE TABLE vectors (
                item_seq bigint PRIMARY KEY REFERENCES items(seq) ON DELETE CASCADE,
                item_id text NOT NULL,
                subject text NOT NULL,
                model text NOT NULL,
                vec vector NOT NULL
            )""",
            "CREATE INDEX vectors_subject ON vectors(subject, model)",
            "CREATE TABLE settings (key text PRIMARY KEY, value text NOT NULL)",
            "CREATE TABLE subject_versions (subject text PRIMARY KEY, version bigint NOT NULL)",
        ],
    ),
    (
        "keyword index of engram.store.keyword (BM25 as on SQLite) instead of the tsvector",
        [
            # ts_rank_cd is not BM25 and the english configuration tokenises unlike SQLite: both
            # backends now share one index format. Filled from the items right after (keyword.ensure).
            "DROP INDEX items_tsv",
            "ALTER TABLE items DROP COLUMN tsv",
            "CREATE TABLE keyword_subjects (subject text PRIMARY KEY, docs bigint NOT NULL, length bigint NOT NULL,"
            " pending integer NOT NULL)",
            "CREATE TABLE keyword_pending (subject text NOT NULL, term text NOT NULL, key bigint NOT NULL,"
            " tf integer NOT NULL, dl integer NOT NULL, PRIMARY KEY (subject, term, key))",
            """CREATE TABLE keyword_postings (
                subject text NOT NULL,
                term text NOT NULL,
                segment bigint NOT NULL,
                level integer NOT NULL,
                docs integer NOT NULL,
                data bytea NOT NULL,
                PRIMARY KEY (subject, term, segment)
            )""",
        ],
    ),
    (
        "vector search in the server: write-order and sample indexes",
        [
            # Write order per subject (neighbours of a hit are read through it), and a uniform
            # random draw per vector: a subject's first SAMPLE rows by draw are a fixed random sample.
            "ALTER TABLE vectors ADD COLUMN draw double precision NOT NULL DEFAULT random()",
            "CREATE INDEX vectors_order ON vectors(subject, model, item_seq)",
            "CREATE INDEX vectors_draw ON vectors(subject, model, draw)",
            "DROP INDEX vectors_subject",
        ],
    ),
    (
        "folded copy of the searched fields (engram.text.fold), filled in Python",
        [
            # NULL until filled: `_migrate` folds the rows of an older database right after this step.
            "ALTER TABLE items ADD COLUMN folded text",
        ],
    ),
    (
        "vectors of a reindex in progress, kept apart until they cover the store",
        [
            # `engram reindex` writes the new model's vectors here; the store's own vectors stay
            # searchable until one transaction swaps them in (engram.core.reindex).
            "CREATE TABLE staged_vectors (item_seq bigint PRIMARY KEY REFERENCES items(seq) ON DELETE CASCADE,"
            " item_id text NOT NULL, subject text NOT NULL, model text NOT NULL, vec vector NOT NULL)",
        ],
    ),
    (
        "items keep room on their pages, so access-count updates are HOT",
        [
            # Recall's access counts reach the store in one UPDATE every few seconds (engram.core.
            # accesses); on full pages every updated row moved to another page with a new entry in
            # each of the table's indexes. With a fifth of each page free the new version stays on
            # its page and no index is touched (neither counted column is indexed). Pages written
            # from now on keep the room; a row already stored moves to such a page on its first update
            # (VACUUM FULL, `scrub(full=True)`, rewrites them all at once).
            f"ALTER TABLE items SET (fillfactor = {ITEMS_FILLFACTOR})",
        ],
    ),
]
