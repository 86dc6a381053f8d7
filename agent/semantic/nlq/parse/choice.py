"""Pass: which metrics the question measures, on which table, grouped by what.

With no measure named, a share of flagged rows or the model's default metric may be meant; a
ranked or grouped question with words left unread is asked back instead (they may be the measure).
For each measure said, the candidate whose table reaches every dimension named wins; 'last month'
gets its dates from that table's latest date; 'per plane' over plane rows averages rows rather than
grouping; a word with several dimensions behind it keeps the one the table can reach."""

from __future__ import annotations

from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.dates import resolve_relative, the_present
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.groupings import drop_per_entity, read_restated_grain
from agent.semantic.nlq.parse.measures import choose_metrics, metrics_for, reachable, with_other_tables
from agent.semantic.nlq.parse.lexicon import Mention
from agent.semantic.nlq.parse.state import Ambiguity, GroupKey, State, mention_text, plural
from agent.semantic.compile.sqlgen import ways_to_reach
from agent.text.phrases import ABBREVIATIONS, phrase
from agent.text.words import lemmas
from agent.text.words import noun_forms


_CONTRAST_SHAPES = ("ratio", "pct_change", "difference")


def default_metric_pass(draft: Draft) -> Draft:
    model = draft.model
    if not draft.metric_choices and draft.having:
        draft.metric_choices = [[h.metric] for h in draft.having]
    if not draft.metric_choices and asks_share(draft, model):
        # 'late delivery rate by ship mode': the share of the rows the condition is on
        owners = {s.table for f in draft.filters for s in model.dimension_by_name[f.field].sources
                  if f.field in model.dimension_by_name and model.dimension_by_name[f.field].kind == "flag"}
        if not owners:  # 'no-show rate by clinic': the share of rows with the value said (a status, a channel)
            owners = {s.table for f in draft.filters if f.op in ("=", "in") and f.field in model.dimension_by_name
                      and model.dimension_by_name[f.field].kind == "categorical"
                      for s in model.dimension_by_name[f.field].sources if s.join is None}
        if not owners:  # 'escalation rate by tier': the share of rows the event happened to (its date set)
            owners = {s.table for f in draft.filters if f.op in ("not_null", "is_null") and model.is_date(f.field)
                      for s in model.dimension_by_name[f.field].sources if s.join is None}
        counts = [count for t in owners if (count := model.table_by_name[t].count_metric)]
        if _says(draft, model.shapes.get("amount_share", [])):
            # 'how much of what we invoiced': the table's one amount added up, never its rows counted
            counts = [m.name for t in owners for m in model.metrics
                      if m.table == t and m.agg == "sum" and m.measure and m.filter is None]
        if len(counts) == 1:
            draft.metric_choices = [[counts[0]]]
    if not draft.metric_choices and (rate := _rate_ranked(draft, model)) is not None:
        draft.metric_choices = [[rate]]
    if not draft.metric_choices and draft.amount_in_unit and draft.display_unit is not None:
        # 'how many miles did United fly': the one measure kept in miles, added up (several: asked)
        unit = model.unit_words[draft.display_unit][0]
        kept_in = [d.name for d in model.dimensions if d.kind == "numeric" and d.unit == unit]
        totals = metrics_for(kept_in[0], ["sum"], model) if len(kept_in) == 1 else []
        if totals:
            draft.metric_choices = [totals]
    if draft.metric_choices:
        return draft
    said_something = draft.grouping or draft.rank_mentions or draft.filters or draft.time
    fillers = set(model.coverage.get("fillers", []))  # 'still', 'currently': never a measure
    # 'how much did each change', 'the ratio': a word of a contrast's shape is read by the shapes pass, never the
    # measure (a metric of that name would have been found already)
    shaping = {w.lower() for kind in _CONTRAST_SHAPES for w in model.shapes.get(kind, []) if " " not in w}
    unread = [w for w in draft.ignored() if not w[:1].isdigit() and w not in fillers and w.lower() not in shaping]
    if unread and said_something and model.default_metric:
        for word in unread:  # 'the fastest': a flight's speed or the wind's, and nothing says which
            said_of = model.ranking.said_of.get(word.lower())
            if said_of is not None:
                labels = [model.dimension_by_name[m].label for m in said_of.measures if m in model.dimension_by_name]
                return draft.stop(f"“{word}” could rank by {' or '.join(labels)}, and nothing says which: name the "
                                  f"measure (for example “by average {labels[0]}”).")
        # no measure named, and words left unread: they may be the measure ('net revenue')
        return draft.stop("I could not tell what to measure: " + ", ".join(f"“{w}”" for w in unread)
                          + " is not a metric of this model.")
    if said_something and (counted := _named_rows_counted(draft) or _flagged_rows_counted(draft)
                           or _values_counted(draft)) is not None:
        draft.metric_choices = [[counted]]
        return draft
    if said_something and model.default_metric:
        # 'the most popular pizza size': orders counted where the sizes are (orders with order details) when
        # the orders themselves cannot be grouped by it without counting an order twice
        default = model.default_metric
        grouped_apart = any(not reachable(key, model.metric_by_name[default].table, model) for key in draft.grouping)
        draft.metric_choices = [with_other_tables([default], model) if grouped_apart else [default]]
        draft.defaulted = True
        return draft
    return draft.stop("The question names nothing the semantic model can measure.")


def _by_the_way_said(key: GroupKey, grouping: list[GroupKey], table: str, state: State,
                     model: SemanticModel) -> GroupKey:
    """'who had the best average technical rank in each series': the challenges reach the series through the
    episode and through the baker; the question already groups by the baker, so the baker's series is meant
    (the dimension by way of that entity). Asked, as before, when neither or both ways are said."""
    ways = ways_to_reach(model.project, table, key) if isinstance(key, str) and model.project else []
    if not ways:
        return key
    said = {e.name for m in state.mentions for e in m.of("entity")}
    said |= {s.table for other in grouping if isinstance(other, str) and other != key
             and other in model.dimension_by_name for s in model.dimension_by_name[other].sources}
    chosen = [way for way in ways if model.table_of_entity(way[-1]) in said]
    if len(chosen) != 1:
        return key
    qualified = f"{chosen[0][-1]}__{key}"
    return qualified if model.resolve(qualified, table) is not None else key


def _told_by_other_words(key: GroupKey, said: Mention | None, state: State, model: SemanticModel) -> GroupKey:
    """'which airport had the most departures': of the dimensions a word could mean (origin, destination),
    the one whose other names share a word with the rest of the question (origin is the 'departure
    airport'); the options as they were when none or several do."""
    if not isinstance(key, tuple) or said is None:
        return key
    own = {t.low for t in state.tokens[said.start:said.end]}
    # a short form said is its word ('avg dep delay by airport': the departure's)
    elsewhere = {form for i, t in enumerate(state.tokens) if not said.start <= i < said.end and t.low.isalpha()
                 and t.low not in state.function_words
                 for word in (t.low, *ABBREVIATIONS.get(t.low, "").split()) for form in noun_forms(word)}
    told = []
    for name in key:
        dim = model.dimension_by_name[name]
        words = {w for text in [dim.label, *dim.synonyms, *dim.related] for w in text.lower().split()} - own
        if words & elsewhere:
            told.append(name)
    return told[0] if len(told) == 1 else key


def _told_by_the_table_joined(key: GroupKey, draft: Draft, table: str) -> GroupKey:
    """'flights when it was below freezing, by airport': a condition on a table joined to the rows (the hourly
    weather) is of the one place it shares with them, so of the dimensions a word could mean (origin,
    destination) the one that table holds too is meant ('by airport' after such a reading, too); the options as
    they were when none or several are."""
    if not isinstance(key, tuple):
        return key
    dims = draft.model.dimension_by_name
    fields = [f.field for f in draft.filters] + draft.thread_fields  # in a thread, the previous reading's too
    joined = {s.table for f in fields if f in dims and all(s.table != table for s in dims[f].sources)
              for s in dims[f].sources}
    told = [name for name in key if name in dims and any(s.table in joined for s in dims[name].sources)]
    return told[0] if len(told) == 1 else key


def _named_rows_counted(draft: Draft) -> str | None:
    """'how many ratings were above 4': the word that names the compared column names the rows too, so
    those rows are counted (not the model's default), when one named table holds every condition."""
    model = draft.model
    named = {e.name for m in draft.state.mentions for e in m.of("entity")}
    fields = [f.field for f in draft.filters if f.field in model.dimension_by_name]
    owners = [t for t in named if fields and all(
        any(s.table == t for s in model.dimension_by_name[f].sources) for f in fields)]
    if len(owners) != 1:
        return None
    return model.table_by_name[owners[0]].count_metric


def _flagged_rows_counted(draft: Draft) -> str | None:
    """'which job role has the most leavers': nothing measured is named, so the rows the yes/no conditions
    are on are counted (not the model's default, which may count other things), when one table holds them."""
    model = draft.model
    flags = [f.field for f in draft.filters if f.field in model.dimension_by_name
             and model.dimension_by_name[f.field].kind == "flag"]
    owners = {s.table for f in flags for s in model.dimension_by_name[f].sources if s.join is None}
    if not flags or len(owners) != 1:
        return None
    return model.table_by_name[owners.pop()].count_metric


def _values_counted(draft: Draft) -> str | None:
    """'no-shows by property': a value said as a plural noun names rows of its own, so those rows are counted
    (not the model's default, which may count other things), when one table holds every such value."""
    model, state = draft.model, draft.state
    plural_values = {e.dimension_value[0] for m in state.mentions for e in m.of("value")
                     if m.used and state.tokens[m.end - 1].low.endswith("s") and not state.tokens[m.end - 1].low.endswith("ss")}
    said = [f.field for f in draft.filters if f.field in plural_values and f.field in model.dimension_by_name]
    owners = {s.table for f in said for s in model.dimension_by_name[f].sources if s.join is None}
    if not said or len(owners) != 1:
        return None
    return model.table_by_name[owners.pop()].count_metric


def metrics_pass(draft: Draft) -> Draft:
    model, state = draft.model, draft.state
    _the_things_own(draft, model)
    mentions = dict(draft.grouping)
    # the date the question names must be reachable too ('episodes aired in 2015': where the air dates are)
    fields = list(draft.grouping) + [f.field for f in draft.filters] + ([draft.dated_by] if draft.dated_by else [])
    dated = draft.time is not None and not draft.time.is_empty() and draft.dated_by is None
    draft.metrics = choose_metrics(draft.metric_choices, fields, model, dated)
    draft.metrics = _rows_said_of_the_things(draft, model) or draft.metrics
    draft.metrics = _things_said_doing(draft, model) or draft.metrics
    table = draft.table = model.metric_by_name[draft.metrics[0]].table
    time = draft.time
    if time is not None and time.relative is not None:
        latest = the_present(draft.values, table, draft.dated_by)
        if latest is None:
            return draft.stop(f"I could not read the latest date in the {table} data, so “{time.relative.words}” "
                              "has no dates to count back from.")
        draft.time = resolve_relative(time, latest)
    # 'seats per plane' averages plane rows; a list of the planes, or the priciest of them, keeps them
    grouping = drop_per_entity(draft.grouping, state, model, table)
    grouping += [key for key in draft.grouping if key in draft.kept and key not in grouping]
    grouping = read_restated_grain(state, model, table, grouping, mentions)
    grouping = [_told_by_other_words(key, mentions.get(key), state, model) for key in grouping]
    grouping = [_told_by_the_table_joined(key, draft, table) for key in grouping]
    options = [key for key in grouping if isinstance(key, tuple)]
    if options:
        return draft.stop("A word could mean more than one thing.", ambiguous=[
            Ambiguity(text=mention_text(state, mentions[key]), options=list(key)) for key in options])
    if any(not any(j.from_table == other and j.to_table == table for j in model.joins) for other, _ in draft.absent):
        said = ", ".join(f"'{words}'" for _, words in draft.absent)
        return draft.stop(f"I could not tell what {said} is missing from.")
    taken = {key: _by_the_way_said(key, grouping, table, state, model) for key in grouping}
    for said_as, key in taken.items():  # by way of a thing ('baker__series_number'), still said where it was
        mentions.setdefault(key, mentions.get(said_as))
    grouping = list(taken.values())
    for key in grouping:
        ways = ways_to_reach(model.project, table, key) if isinstance(key, str) and model.project else []
        if ways:  # 'challenges by series': the episode's series or the baker's: asked, never an error
            label = model.dimension_by_name[key].label if key in model.dimension_by_name else key
            said = " or through the ".join(path[-1].replace("_", " ") for path in ways)
            return draft.stop(f"The {table} rows reach “{label}” two ways: through the {said}, so I cannot tell "
                              "which one to group by.")
    draft.dimensions = [key for key in grouping if isinstance(key, str)]  # every key, now the options are gone
    draft.grouping = {key: mentions.get(key) for key in draft.dimensions}
    return draft


def _the_things_own(draft: Draft, model: SemanticModel) -> None:
    """'customers in each region' where the customers' rows do not reach the region of the agents who sold to
    them but do reach the 'region name' of their own state: the counted things' own is meant, not one reached
    by counting them among other rows, so the grouping is changed to it."""
    counted = draft.metric_choices[0] if len(draft.metric_choices) == 1 else []
    tables = [model.metric_by_name[m].table for m in counted if m in model.metric_by_name]
    table = next((t for t, m in zip(tables, counted) if t and model.table_by_name[t].count_metric == m), None)
    if table is None:
        return
    for key in [k for k in draft.grouping if isinstance(k, str) and k in model.dimension_by_name]:
        if model.resolve(key, table) is not None:
            continue
        said = model.dimension_by_name[key].label.lower().split()
        own = [d.name for d in model.dimensions if d.name != key and d.kind == "categorical" and not d.identifier
               and _holds_in_order(d.label.lower().split(), said) and model.resolve(d.name, table) is not None]
        if len(own) == 1:
            draft.grouping = {(own[0] if k == key else k): m for k, m in draft.grouping.items()}


def _holds_in_order(words: list[str], said: list[str]) -> bool:
    """'region name' holds 'region'; 'sales region' does too."""
    return any(words[i:i + len(said)] == said for i in range(len(words) - len(said) + 1)) and words != said


def _things_said_doing(draft: Draft, model: SemanticModel) -> list[str] | None:
    """'how many donors gave in 2022': things a verb of other rows is said of (to give is what a gift records)
    are counted among those rows, the donors with a gift, dated by the gifts; not every donor on file."""
    metric = draft.metrics[0]
    table = model.metric_by_name[metric].table
    if len(draft.metrics) != 1 or metric != model.table_by_name[table].count_metric \
            or draft.having or draft.absent or draft.definitions:
        return None  # 'members who never borrowed poetry': the verb's rows are a condition on each thing, read already
    verbs = [m for m in draft.state.mentions if m.entries and all(
        e.kind == "entity" and e.related and _a_verb(e.words[-1]) for e in m.entries)]
    rows = {e.name for m in verbs for e in m.entries} - {table}
    if len(rows) != 1:
        return None
    found = [c for option in draft.metric_choices for c in option if model.metric_by_name[c].table in rows]
    if len(set(found)) != 1:
        return None
    for mention in verbs:
        mention.used = True
    return found[:1]


def _a_verb(word: str) -> bool:
    """'gave', 'ordered': a verb's form, and no noun as said ('contribution' is none; 'order' is a noun too)."""
    forms = lemmas(word)
    return "VERB" in forms and ("NOUN" not in forms or word not in forms["VERB"])


def _rows_said_of_the_things(draft: Draft, model: SemanticModel) -> list[str] | None:
    """'which baker was star baker the most': counting bakers grouped by baker gives one each; what is
    counted is the rows the condition is on (the challenges, which point at a baker)."""
    table = model.metric_by_name[draft.metrics[0]].table
    if len(draft.metrics) != 1 or draft.metrics[0] != model.table_by_name[table].count_metric:
        return None
    own = {model.name_dimension(table)} | {d.name for d in model.dimensions if d.identifier and any(
        s.table == table and s.join is None for s in d.sources)}
    if not own & {key for key in draft.grouping if isinstance(key, str)}:
        return None
    owners = {s.table for f in draft.filters if f.field in model.dimension_by_name
              for s in model.dimension_by_name[f.field].sources} - {table}
    pointing = [t for t in owners if model.table_by_name[t].count_metric
                and any(j.from_table == t and j.to_table == table for j in model.joins)]
    return [str(model.table_by_name[pointing[0]].count_metric)] if len(pointing) == 1 else None


def _rate_ranked(draft: Draft, model: SemanticModel) -> str | None:
    """'which job role has the highest attrition': a rate-ranking word (shapes `rate_ranking`) right before a
    yes/no condition said in the singular ranks by the model's rate of it; the condition becomes what is
    measured, no longer a filter. None where the model has no such rate."""
    words = {phrase(w) for w in model.shapes.get("rate_ranking", [])}
    state = draft.state
    for mention in state.mentions:
        if not mention.has("rank") or tuple(t.low for t in state.tokens[mention.start:mention.end]) not in words:
            continue
        flag = next((m for m in state.mentions if m.start == mention.end and m.has("flag")), None)
        if flag is None or plural(state, flag):
            continue
        for entry in flag.of("flag"):
            said = [f for f in draft.filters if f.field == entry.name and f.op == "=" and f.values == [True]]
            counted = model.flag_count(entry.name)
            rate = model.rate_of(counted[0]) if counted else None
            if said and rate is not None:
                draft.filters = [f for f in draft.filters if f is not said[0]]
                return rate
    return None


def asks_share(draft: Draft, model: SemanticModel) -> bool:
    return _says(draft, model.shapes.get("share", []))


def _says(draft: Draft, texts: list[str]) -> bool:
    words = [t.low for t in draft.tokens]
    for text in texts:
        wanted = list(phrase(text))
        if any(words[i:i + len(wanted)] == wanted for i in range(len(words))):
            return True
    return False
