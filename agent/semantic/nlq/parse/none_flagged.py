"""Pass: groups none of whose rows is flagged ('which job roles have no leavers', 'departments with zero
attrition', 'where has nobody ever left'): a count of the flagged rows that must be 0 in each group (HAVING),
not the flagged rows alone (a WHERE would leave exactly those groups out). The words are vocabulary data
(shapes `none_of`, `no_person`, `none_of_fillers`). Said of the flag's own rows ('flights with no
cancellation'), 'no' is a negated condition, read by the flags pass."""

from __future__ import annotations

from agent.semantic.compile.intent import Filter, MetricFilter
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.lexicon import Mention
from agent.semantic.nlq.parse.state import State, mention_at, phrased
from agent.text.words import lemmas, noun_forms


def none_flagged_pass(draft: Draft) -> Draft:
    state, model = draft.state, draft.model
    cues = sorted(phrased(model.shapes.get("none_of", [])), key=len, reverse=True)
    people = set(phrased(model.shapes.get("no_person", [])))
    fillers = set(model.shapes.get("none_of_fillers", []))
    words = [t.low for t in state.tokens]
    for index in range(len(words)):
        cue = next((c for c in cues if tuple(words[index:index + len(c)]) == c), None)
        if cue is None or index in state.used_tokens:
            continue
        j = index + len(cue)
        while j < len(words) and words[j] in fillers:
            j += 1
        counted_here = _count_column_at(state, j, model)
        if counted_here is not None and not _said_of_other_things(state, index, counted_here[1], model):
            column, _, end = counted_here  # 'episodes that had no star baker': their count of them is 0
            draft.filters.append(Filter(field=column, op="=", values=[0]))
            state.consume(*range(index, end))
            for mention in state.mentions:
                if index <= mention.start < end:
                    mention.used = True
            return draft
        counted, table, end = _counted_at(state, j, model)
        if counted is None:
            flag, end = _flag_at(state, j, model, by_its_verb=cue in people)
            if flag is None:
                continue
            counted, table = model.flag_count(flag) or (None, None)
        if counted is None or table is None or not _said_of_other_things(state, index, table, model):
            continue
        draft.having.append(MetricFilter(metric=counted, op="=", value=0))
        state.consume(*range(index, end))  # the fillers too ('ever': all of the data, as without it)
        for mention in state.mentions:
            if index <= mention.start < end:
                mention.used = True
        return draft
    return draft


def _count_column_at(state: State, j: int, model: SemanticModel) -> tuple[str, str, int] | None:
    """A numeric column that counts things said at token `j` (its label ends in a plural noun: 'star
    bakers', 'children'), its table and where its words end."""
    mention = mention_at(state, j)
    if mention is None or mention.start != j or mention.used:
        return None
    for entry in mention.of("dimension"):
        dim = model.dimension_by_name[entry.name]
        last = dim.label.lower().split()[-1]
        if dim.kind == "numeric" and last in noun_forms(last) and last not in lemmas(last).get("NOUN", (last,)):
            return dim.name, dim.sources[0].table, mention.end
    return None


def _counted_at(state: State, j: int, model: SemanticModel) -> tuple[str | None, str | None, int]:
    """A count of rows said at token `j` ('no cancelled flights': the model's count of them), its table and
    where its words end."""
    mention = mention_at(state, j)
    if mention is None or mention.start != j or mention.used or not mention.has("metric"):
        return None, None, j
    metric = model.metric_by_name[mention.of("metric")[0].name]
    expr = _squashed(metric.expr or "")
    counts = metric.agg in ("count", "sum_boolean") or expr.startswith(("count(", "sum_boolean("))
    return (metric.name, metric.table, mention.end) if counts and metric.table else (None, None, j)


def _flag_at(state: State, j: int, model: SemanticModel, by_its_verb: bool) -> tuple[str | None, int]:
    """The flag said at token `j` (by its words, or after 'nobody' by the verb of what it says: 'left' for
    'left the company'), and where its words end."""
    mention = mention_at(state, j)
    if mention is not None and mention.start == j and not mention.used and mention.has("flag"):
        return mention.of("flag")[0].name, mention.end
    if not by_its_verb or j >= len(state.tokens):
        return None, j
    verbs = set(lemmas(state.tokens[j].low).get("VERB", ()))
    said = [d.name for d in model.dimensions if d.kind == "flag" and verbs and any(
        verbs & set(lemmas(words.split()[0]).get("VERB", ())) for words in d.related if len(words.split()) > 1)]
    return (said[0], j + 1) if len(set(said)) == 1 else (None, j)


def _said_of_other_things(state: State, index: int, table: str, model: SemanticModel) -> bool:
    """Is the nearest thing named before the cue a thing other than the flag's rows (the groups)?"""
    for k in range(index - 1, -1, -1):
        mention: Mention | None = mention_at(state, k)
        if mention is None or mention.start != k:
            continue
        if mention.has("entity"):
            return all(e.name != table for e in mention.of("entity"))
        if any(model.dimension_by_name[e.name].kind == "categorical" for e in mention.of("dimension")):
            return True
    return False


def _squashed(expr: str) -> str:
    return "".join(expr.lower().split())
