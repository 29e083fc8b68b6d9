"""English text rules every package shares, each defined once.

- `normalise`: `fold` (the comparison rule of every store), `plain` (NFKC, invisible characters
  removed, quotes and dashes straightened), `squeeze` (whitespace runs to one space);
- `quotes`: the one table of curly quotes and dashes and their ASCII forms (`straighten`);
- `stopwords`: English function words (`STOP_WORDS`);
- `stem`: the light English stemmer (`stem`) and the possessive fold (`name_key`).

Pure functions and constants only: no I/O, no imports from the rest of Engram.
"""
