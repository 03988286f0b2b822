"""The pipeline that checks a log: bytes, lines, JSON, the schema, the semantic checks and the
rules replay, one file at a time (`engine.FileCheck`), under one reporting policy (`policy`),
in this process or in workers (`executors`); the files named by folders and globs (`files`)."""
