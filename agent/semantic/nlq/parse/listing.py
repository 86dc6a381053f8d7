"""Pass: a question that asks for the things themselves, not a number ('list our job roles', 'list every
series winner', 'what showstoppers did Nadiya make?'): the answer is one row per thing, by what names
it, under the conditions said. Only where nothing is measured, counted or ranked.

A thing is named by its table's own name or title column; a table without one (rows told apart by a
key) is asked about, with what could name them (its key, the name of the row it belongs to)."""

from __future__ import annotations

from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.groupings import name_of
from agent.semantic.nlq.parse.lexicon import Kind, Mention
from agent.semantic.nlq.parse.limits import PER_GROUP_CUES
from agent.semantic.nlq.parse.state import WHICH, Ambiguity, State, mention_text, plural
from agent.text.phrases import phrase
from agent.text.words import lemmas, noun_forms, plural_phrase

# what else a list question may not hold: an aggregation, a ranking, a time grain (or a measure, below)
_MEASURING: tuple[Kind, ...] = ("agg", "rank", "grain")
_GROUPING_CUES = [*PER_GROUP_CUES, ("by",), ("for", "each")]


def listing_pass(draft: Draft) -> Draft:
    state, model = draft.state, draft.model
    # a condition on a total asks for a number; 'which users never gave a 5' still lists the users
    filtered = {d.name for d in draft.definitions if d.kind == "filtered"}
    if any(h.metric not in filtered for h in draft.having) or draft.limit is not None or draft.top:
        return draft
    # a ranking word read already as a comparison ('bakers older than 60') ranks nothing
    if any(m.has(kind) and not (kind == "rank" and m.used) for m in state.mentions for kind in _MEASURING) \
            or _measures(state, model) \
            or _shaped(state, model):
        return draft
    listed = _things_with_a_clause(state, model)
    if listed is None:
        start = _list_cue(state, model)
        if start is None:
            return draft
        listed = _listed(state, model, start)
    if listed is None:
        return draft
    mention, table, dimension = listed
    if dimension is None:
        dimension = _name_of_its_type(table, model)
    if dimension is None:
        options = _names_of(table, model)
        if len(options) != 1:
            return draft.stop(f"The {plural_phrase(mention_text(state, mention))} have no name to list them by.",
                              ambiguous=[Ambiguity(text=mention_text(state, mention), options=options)] if options
                              else [])
        dimension = options[0]
    draft.grouping[dimension] = mention
    draft.kept.add(dimension)
    mention.used = True
    mention.entries = [e for e in mention.entries if e.kind != "metric"]  # 'members' names them, not their count
    # counted where the things are, or where what is said of them is ('which books did Ada borrow': the loans)
    counts = [model.table_by_name[table].count_metric] + [
        t.count_metric for t in model.tables if t.name != table and model.resolve(dimension, t.name) is not None]
    # none of whose rows meet a condition: the rows are counted where the condition is ('users who never …')
    draft.metric_choices = [[h.metric] for h in draft.having] or [[c for c in counts if c]]
    draft.listing = True
    return draft


def _measures(state: State, model: SemanticModel) -> bool:
    """A measure said ('average price'); a metric that only counts the things listed ('members') is not one."""
    for mention in (m for m in state.mentions if not m.used):  # 'with more than 300 seats' was a condition
        for entry in mention.of("metric"):
            if model.metric_by_name[entry.name].measure is not None or not mention.has("entity"):
                return True
        if any(model.dimension_by_name[e.name].kind == "numeric" for e in mention.of("dimension")) \
                and state.cue_before(mention.start, _GROUPING_CUES) is None:
            return True  # 'the winners of each series': a number column said as a grouping measures nothing
    return False


def _shaped(state: State, model: SemanticModel) -> bool:
    """A count, a share, a ratio, a change: the question asks for a number after all."""
    words = [t.low for t in state.tokens]
    for shape in ("count_question", "share", "ratio", "pct_change", "difference", "previous_period", "previous_year"):
        for text in model.shapes.get(shape, []):
            wanted = list(phrase(text))
            if any(words[i:i + len(wanted)] == wanted for i in range(len(words))):
                return True
    return False


_LEADS = {"our", "the", "all", "any", "every"}
_RELATIVES = {"who", "that", "which", "whose", "who've", "who'd", "who's", "that've"}


def _things_with_a_clause(state: State, model: SemanticModel) -> tuple[Mention, str, str | None] | None:
    """'staff who never took an order', 'customers that have never raised a ticket': a message that is only the
    things and a clause about them asks for the things themselves."""
    words = [t.low for t in state.tokens]
    k = 0
    while k < len(words) and words[k] in _LEADS:
        k += 1
    mention = next((m for m in state.mentions if m.start == k and m.has("entity")), None)
    if mention is None or mention.end >= len(words) or words[mention.end] not in _RELATIVES:
        return None
    table = mention.of("entity")[0].name
    return mention, table, name_of_own(table, model)


def _list_cue(state: State, model: SemanticModel) -> int | None:
    """Where the things to list are said: after a list phrase, or after 'what'/'which' and a plural."""
    words = [t.low for t in state.tokens]
    for text in sorted(model.shapes.get("list", []), key=len, reverse=True):
        cue = list(phrase(text))
        for i in range(len(words) - len(cue) + 1):
            if words[i:i + len(cue)] == cue:
                state.consume(*range(i, i + len(cue)))
                return i + len(cue)
    if words and words[0] in WHICH:
        return -1  # 'what showstoppers did …': the thing must follow at once
    return None


def _listed(state: State, model: SemanticModel, start: int) -> tuple[Mention, str, str | None] | None:
    """The first thing said from `start` (-1: right after 'what' / 'which'): a table's things, or a column."""
    for mention in state.mentions:
        if start == -1 and mention.start != 1:
            continue
        if mention.start < start:
            continue
        if mention.has("entity") and (plural(state, mention) or state.tokens[mention.start - 1].low in ("every", "each")
                                      if mention.start else False):
            table = mention.of("entity")[0].name
            return mention, table, name_of_own(table, model)
        flags = [e.name for e in mention.of("flag")]
        if flags and (plural(state, mention) or start > 0):  # 'list every series winner': the rows flagged
            table = model.dimension_by_name[flags[0]].sources[0].table
            return mention, table, name_of_own(table, model)
        things = _things_a_value_names(state, mention, model)
        if things is not None:  # 'list our airport locations': the locations whose type is airport
            return mention, things, name_of_own(things, model)
        dims = [e.name for e in mention.of("dimension")
                if model.dimension_by_name[e.name].kind == "categorical"]
        if dims and not mention.used and (plural(state, mention) or start > 0):
            source = model.dimension_by_name[dims[0]].sources[0].table
            return mention, source, dims[0]
    return None


def _things_a_value_names(state: State, mention: Mention, model: SemanticModel) -> str | None:
    """The table whose things a value's words end in ('airport locations', a branch type's label ending in
    a word for branches), said in the plural: those things are listed, the value filters them."""
    if not mention.has("value") or not plural(state, mention):
        return None
    last = state.tokens[mention.end - 1].low
    held = {s.table for e in mention.of("value") for s in model.dimension_by_name[e.dimension_value[0]].sources}
    for table in sorted(held):
        spec = model.table_by_name[table]
        words = {w for text in [*spec.entity_words, *spec.related] for w in noun_forms(text.lower().split()[-1])}
        if last in words:
            return table
    return None


def name_of_own(table: str, model: SemanticModel) -> str | None:
    """The table's own name or title column (not a key)."""
    found = name_of(table, model)
    return None if found is None or model.dimension_by_name[found].identifier else found


def _name_of_its_type(table: str, model: SemanticModel) -> str | None:
    """A thing with no name of its own is listed by its type's ('the veggie pizzas': the names of their pizza
    types), when it belongs to one table named as its type (shapes `type_of_thing`: 'pizza type', 'room kind')."""
    words = set(model.shapes.get("type_of_thing", []))
    spec = model.table_by_name[table]
    own = {w.split()[-1] for w in spec.entity_words} | {singular for w in spec.entity_words
                                                        for singular in lemmas(w.split()[-1]).get("NOUN", ())}
    types = [j.to_table for j in model.joins if j.from_table == table and any(
        len(said := w.split()) >= 2 and said[-2] in own and said[-1] in words
        for w in model.table_by_name[j.to_table].entity_words)]
    names = [n for t in dict.fromkeys(types) if (n := name_of_own(t, model)) is not None]
    return names[0] if len(names) == 1 else None


def _names_of(table: str, model: SemanticModel) -> list[str]:
    """What could name a table's things when it has no name column: its key, and the name of each row
    it belongs to."""
    options = [d for d in (name_of(table, model),) if d]
    for join in model.joins:
        if join.from_table == table:
            parent = name_of_own(join.to_table, model)
            if parent is not None and parent not in options:
                options.append(parent)
    return options
