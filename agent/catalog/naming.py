"""How the schema bootstrap reads a table's or column's name: its words in any naming style, a
table's column prefix (TPC-H's 'l_'), a table's thing in the singular, and the bootstrap's words."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from agent.text.vocabulary import english
from agent.text.words import lemma, shared_prefix, split_name
from agent.yamlload import safe_load

WORDS_PATH = Path(__file__).with_name("bootstrap_words.yaml")


@functools.lru_cache(maxsize=1)
def bootstrap_words() -> dict[str, Any]:
    """bootstrap_words.yaml, with vocabulary.yaml's `net_measures` (price, quantity, deduction words)."""
    words = safe_load(WORDS_PATH.read_text(encoding="utf-8")) or {}
    words["net_measures"] = {key: list(value) for key, value in (english().get("net_measures") or {}).items()}
    return words


def slug(name: str) -> str:
    """A dbt name: lower-case letters, digits and single underscores ('pizzaTypeId' -> pizza_type_id)."""
    text = "_".join(split_name(name).split())
    text = re.sub(r"[^0-9a-z]+", "_", text).strip("_")
    text = re.sub(r"_+", "_", text)
    return text if text and not text[0].isdigit() else f"c_{text}"


def column_prefix(names: list[str]) -> str:
    """'l_' when the columns start with the same short prefix (l_orderkey, l_shipdate, ...; keys aside)."""
    return shared_prefix(names)


def words_of(name: str, prefix: str = "") -> tuple[str, ...]:
    """A column's words once its table's prefix is set aside ('l_suppkey' -> ('suppkey',),
    'StoreId' -> ('store', 'id'))."""
    bare = name[len(prefix):] if prefix and name.lower().startswith(prefix) else name
    return tuple(split_name(bare).split())


@functools.lru_cache(maxsize=4096)
def singular(word: str) -> str:
    """A noun in the singular, from lemminflect ('movies' -> movie, 'series' -> series, 'people' ->
    person); a word it does not know as a plural noun stays as it is."""
    if not word.isalpha() or len(word) < 3:
        return word
    found = lemma(word.lower(), "NOUN")
    return found[0] if found and found[0] else word


def table_words(table: str) -> list[str]:
    """A table's name in words without the warehouse layer it is marked with ('fact_sales' -> sales,
    'dim_customer' -> customer, 'orders_stg' -> orders; bootstrap_words.yaml `layer_markers`): people
    call the rows by the rest."""
    words = split_name(table).split()
    markers = set(bootstrap_words()["layer_markers"])
    if len(words) > 1 and words[0] in markers:
        words = words[1:]
    elif len(words) > 1 and words[-1] in markers:
        words = words[:-1]
    return words


def thing(table: str) -> tuple[str, ...]:
    """What one row of `table` is, in words: its name's words with the last one singular
    ('orderDetails' -> order detail, 'job_roles' -> job role, 'dim_customer' -> customer)."""
    words = table_words(table)
    return (*words[:-1], singular(words[-1])) if words else ()


def key_stem(words: tuple[str, ...]) -> tuple[str, ...]:
    """A key's words without its trailing key word ('store id' -> store, 'suppkey' -> supp)."""
    keys = bootstrap_words()["key_words"]
    if len(words) > 1 and words[-1] in keys:
        return words[:-1]
    if len(words) == 1:
        for key in keys:
            if words[0].endswith(key) and len(words[0]) > len(key) + 1:
                return (words[0][: -len(key)],)
    return words
