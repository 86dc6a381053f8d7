"""Teaching in words: "when I say hub I mean origin airport", "by late we mean arrival delay > 15".

The meaning is read as one thing of the model (a measure, a field, what a table's rows are called) or,
failing that, as a condition on a thing's related rows (`agent.learning.relating`) or a definition the reader
already takes in a question (a condition or a formula over one table's columns: `agent.semantic.compile.definitions`). Either is shown back with "Remember …?" and kept only when
someone confirms; what cannot be read that way is said, and nothing is kept."""

from __future__ import annotations

from agent.learning.overlay import label_of, resolve
import re

from agent.semantic.compile.definitions import Definition, column_words
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.defining import read_definitions
from agent.learning.offer import LearnOffer
from agent.learning.relating import related_definition
from agent.semantic.compile.related import related_words


def _columns_joined(meaning: str, model: SemanticModel) -> str:
    """'arrival delay > 15' as 'arrivaldelay > 15': a column said in words, as the formula reader takes it."""
    known = column_words(model)
    words = meaning.split()
    out: list[str] = []
    i = 0
    while i < len(words):
        for j in range(min(len(words), i + 4), i + 1, -1):  # the longest run of words naming one column
            if re.sub(r"[^0-9a-z]", "", "".join(words[i:j]).lower()) in known:
                out.append("".join(words[i:j]))
                i = j
                break
        else:
            out.append(words[i])
            i += 1
    return " ".join(out)


def definition_for(word: str, meaning: str, model: SemanticModel) -> Definition | None:
    """The condition or measure `meaning` defines, named `word`; None when it defines none."""
    related = related_definition(word, meaning, model)
    if related is not None:
        return related
    joined = _columns_joined(meaning, model)
    for said in (f"{word} = {meaning}", f"{word} ({meaning})", f"{word} = {joined}"):
        _, definitions, _ = read_definitions(said, model)
        named = [d for d in definitions if d.label == word]
        if len(named) == 1 and named[0].kind in ("condition", "measure"):
            return named[0]
    return _threshold(word, joined, model)


_THRESHOLD = re.compile(r"^(?P<column>.+?)\s*(?P<op>>=|<=|!=|<>|>|<|=)\s*(?P<number>-?\d+(?:\.\d+)?)$")


def _threshold(word: str, meaning: str, model: SemanticModel) -> Definition | None:
    """'arrival delay > 15': one numeric column against a number, in the column's own unit. In a question
    the comparisons pass reads such a condition with its units; taught, it is the team's fixed threshold."""
    said = _THRESHOLD.match(meaning.strip())
    if said is None:
        return None
    places = set(column_words(model).get(re.sub(r"[^0-9a-z]", "", said["column"].lower()), []))
    if len(places) != 1:
        return None
    [(table, expr, kind)] = places
    if kind != "numeric":
        return None  # a number compared with a date or a text says nothing this reader can be sure of
    op = "!=" if said["op"] == "<>" else said["op"]
    name = "learned_" + "_".join(re.findall(r"[a-z0-9]+", word.lower()))
    return Definition(name=name, label=word, table=table, kind="condition", expr=f"({expr} {op} {said['number']})")


def understand(word: str, meaning: str, model: SemanticModel) -> LearnOffer | None:
    target = resolve(meaning, model)
    if target is not None:
        return LearnOffer(word=word, meaning=label_of(target, model), kind=target[0], name=target[1])
    definition = definition_for(word, meaning, model)
    if definition is None:
        return None
    return LearnOffer(word=word, meaning=meaning, kind="definition", name=definition.name)


def not_understood(word: str, meaning: str) -> str:
    return (f"I could not read “{meaning}” as something in the data model, so I did not learn “{word}”. I can learn "
            "a word for a measure, a field or what a table's rows are called (“when I say hub I mean origin "
            "airport”), for a condition or formula over one table's columns (“by late we mean arrival delay "
            "> 15”), or for a thing with related rows (“when I say active customer I mean a customer with an order "
            "in the last 90 days”).")


def explain(offer: LearnOffer, model: SemanticModel) -> str:
    """What the offer would teach, in the model's terms, so the person confirms the meaning, not the words."""
    if offer.kind != "definition":
        return f"the data model's “{offer.meaning}” ({offer.kind} {offer.name})"
    definition = definition_for(offer.word, offer.meaning, model)
    if definition is None:
        return f"“{offer.meaning}”"
    if definition.related is not None:
        return related_words(definition.table, definition.related, model)
    what = "the condition" if definition.kind == "condition" else f"the {definition.agg} of"
    return f"{what} {definition.expr} on the {definition.table} rows"
