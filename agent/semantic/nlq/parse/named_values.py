"""Pass: values the warehouse holds ('JetBlue', 'EWR') as filters, negated ones, values set
against each other ('Delta vs United'), code-like words that match nothing, and flag words."""

from __future__ import annotations

import re

from agent.semantic.compile.intent import Filter
from agent.semantic.model.runtime import Dimension, SemanticModel
from agent.semantic.nlq.parse.groupings import asks_what_it_is, own_column, through
from agent.semantic.nlq.parse.lexicon import Entry, Mention
from agent.semantic.nlq.parse.groupings import COUNT_ASKS
from agent.semantic.nlq.parse.state import (
    CODE_LIKE,
    GROUP_CUES,
    Ambiguity,
    State,
    UnknownValue,
    consume_with_mentions,
    covered,
    is_negated,
    mention_at,
    mention_text,
    names_the_data,
    plural,
    phrased,
)
from agent.text.phrases import STOPWORDS
from agent.text.words import lemmas, noun_forms
from agent.semantic.model.values import ValueIndex, base_name, spelling_key
from agent.semantic.nlq.parse.draft import Draft


def _split_by(state: State, said: Mention, dimension: str) -> bool:
    """Whether the question groups by the very dimension a value of several things was said of ('chicago …
    split by airport'): then it asks for each of them, not for one."""
    return any(
        m is not said and dimension in [e.name for e in m.of("dimension")] and state.cue_before(m.start, GROUP_CUES)
        for m in state.mentions)


def read_flags(state: State, inclusive: list[str]) -> list[Filter]:
    """'flights that actually took off': a true/false dimension said by its words, or negated;
    'leavers included', 'including cancelled flights' keep both kinds of rows: no condition."""
    filters = []
    for mention in state.mentions:
        for entry in mention.of("flag"):
            if mention.used:
                continue
            mention.used = True
            said = [i for i in (mention.start - 1, mention.end) if 0 <= i < len(state.tokens)
                    and state.tokens[i].low in inclusive]
            if said:
                state.consume(*said)
                continue
            value = not is_negated(state, mention.start)
            filters.append(Filter(field=entry.name, values=[value]))
            state.positions.setdefault((entry.name, str(value)), mention.start)  # where it was said, for shapes
    return filters


def read_values(state: State, model: SemanticModel, values: ValueIndex, thread_fields: list[str]
                ) -> tuple[list[Filter], list[UnknownValue], list[str], list[Ambiguity]]:
    """Value filters, words that look like values but are none, the dimensions whose values are
    set against each other ('Delta vs United') and so also group the answer, and values of several
    dimensions that nothing said decides between (asked, one option per dimension)."""
    chosen: dict[str, list[str]] = {}
    negated: dict[str, list[str]] = {}
    placed: list[tuple[Mention, str]] = []

    def place(mention: Mention, candidates: list[tuple[str, str]], base: str) -> None:
        dim = base
        named = _named_right_after(state, mention, [base])
        if named is not None and not (asks_what_it_is(state) and state.tokens[mention.end].low == "'s"):
            named.used = True  # 'low job satisfaction': the name says whose value, it groups nothing
            # ('what's envoy's carrier code' asks for it: left for the groupings)
        owner = mention_at(state, mention.end)
        if owner is not None and owner.start == mention.end and owner.has("entity") and not owner.used \
                and not owner.has("dimension"):
            qualified = through(owner, dim, model)  # 'EUROPE customers': the region of the customers
            if qualified != dim:
                dim = qualified
                # 'how many horror movies': the movies are also what is counted, left for the measures
                owner.used = state.words_before(mention.start, 2) not in COUNT_ASKS
        if is_negated(state, mention.start) and any(_an_item(values, d, v) for d, v in candidates):
            return  # 'without mushrooms': no filter says a list lacks an item; left unread, it is asked about
        target = negated if is_negated(state, mention.start) else chosen
        for value in (v for d, v in candidates if d == base):  # 'Canadair': CANADAIR and CANADAIR LTD
            if value not in target.setdefault(dim, []):
                target[dim].append(value)
        mention.used = True
        _passive_agent(state, mention)
        if target is chosen:
            placed.append((mention, dim))
            for _, value in candidates:
                state.positions.setdefault((dim, str(value)), mention.start)

    undecided: list[tuple[Mention, list[tuple[str, str]], list[str]]] = []
    asked: list[Ambiguity] = []
    misplaced: list[UnknownValue] = []
    for mention in state.mentions:
        candidates = [e.dimension_value for e in mention.of("value") if not e.needs_cue or _value_cue_before(state, mention, e, model)]
        shared_by = list(dict.fromkeys(e.dimension_value[0] for e in mention.of("value")))
        if not candidates and len(shared_by) > 1 and (mine := _of_the_things_said(state, shared_by, model)):
            # a code's meaning shared by columns ('delivered'), one of them the named things' own ('loads')
            candidates = [e.dimension_value for e in mention.of("value") if e.dimension_value[0] == mine]
        if not candidates or mention.used:
            continue
        if mention.has("dimension") and state.cue_before(mention.start, GROUP_CUES):
            continue  # 'listeners by country': the column named after 'by' groups, whatever genre is called Country
        # 'chicken pizzas': a column's whole value before an item of another column's lists
        candidates = [c for c in candidates if not _an_item(values, *c)] or candidates
        dims = list(dict.fromkeys(dim for dim, _ in candidates))
        elsewhere = _cued_elsewhere(state, mention, dims, model)
        if elsewhere is not None:  # 'flights leaving phl' where PHL is only ever a destination: said, not moved
            misplaced.append(UnknownValue(text=mention_text(state, mention), dimension=elsewhere))
            mention.used = True
            continue
        decided = _value_dimension(state, mention, dims, model, thread_fields)
        things = _different_things(values, model, decided, [v for d, v in candidates if d == decided]) if decided else []
        if len(things) > 1 and decided is not None and _split_by(state, mention, decided):
            place(mention, candidates, decided)  # 'flights to chicago, split by airport': every one of them, apart
            continue
        if len(things) > 1:  # 'portland': Portland Intl or Portland Intl Jetport, one button each
            asked.append(Ambiguity(text=mention_text(state, mention), options=things))
            mention.used = True
            continue
        namesakes = _namesakes(values, model, decided, [v for d, v in candidates if d == decided]) if decided else []
        if len(namesakes) > 1:  # 'aurora' where two artists are called Aurora: one button per artist
            asked.append(Ambiguity(text=mention_text(state, mention), options=namesakes, namesakes=True))
            mention.used = True
            continue
        held_by = _the_one_said(state, mention, values, model, decided, candidates) if decided else []
        if len(held_by) > 1:  # 'the chicago branch' where three branches are in Chicago: one button each
            asked.append(Ambiguity(text=mention_text(state, mention), options=held_by, namesakes=True))
            mention.used = True
            continue
        if decided is None:
            undecided.append((mention, candidates, dims))
            mention.used = True  # read: a value, of which dimension is told by its neighbours or asked
        else:
            place(mention, candidates, decided)
    ambiguous: list[Ambiguity] = asked
    for mention, candidates, dims in undecided:
        listed = _listed_with(state, mention, placed, dims, set(model.coverage.get("value_links", [])), model)
        if listed is not None:
            place(mention, candidates, listed)
        else:
            ambiguous.append(Ambiguity(text=mention_text(state, mention), options=dims, of_value=True))
    placed.sort(key=lambda item: item[0].start)
    _one_column_one_filter(chosen, state, model)
    # an item of a list column: the rows whose list holds it, each item said ('with mushrooms and garlic': both)
    filters = [Filter(field=d, op="contains", values=[value]) for d, v in chosen.items() for value in v
               if _an_item(values, d, value)]
    chosen = {d: kept for d, v in chosen.items() if (kept := [x for x in v if not _an_item(values, d, x)])}
    filters += [Filter(field=d, op="=" if len(v) == 1 else "in", values=v) for d, v in chosen.items()]
    filters += [Filter(field=d, op="!=", values=[value]) for d, v in negated.items() for value in v]
    unknown = misplaced + _unknown_values(state, model, values)
    return filters, unknown, _compared_dimensions(state, placed, model.shapes.get("side_by_side", [])), ambiguous


def _one_column_one_filter(chosen: dict[str, list[str]], state: State, model: SemanticModel) -> None:
    """'jfk and lga flights': the owner said after the last value ('flight__origin') is whose column both
    values are of; two conditions on one column, each requiring another value, would hold for no row."""
    for qualified in [d for d in chosen if "__" in d]:
        entity, _, base = qualified.rpartition("__")
        table = next((t for t in model.table_by_name.values() if t.entity == entity), None)
        if base not in chosen or table is None or own_column(table.name, base, model) != qualified:
            continue
        for value in chosen.pop(base):
            if value not in chosen[qualified]:
                chosen[qualified].insert(0, value)
            if (base, str(value)) in state.positions:
                state.positions.setdefault((qualified, str(value)), state.positions[(base, str(value))])


def _different_things(values: ValueIndex, model: SemanticModel, dimension: str, said: list[str]) -> list[str]:
    """The names of the values one phrase named, when they are different things ('Portland Intl', 'Portland
    Intl Jetport'); [] when they are one thing spelt two ways ('CANADAIR', 'CANADAIR LTD': both are meant)
    or items of a list column (each is a condition of its own)."""
    if len(said) < 2 or any(_an_item(values, dimension, v) for v in said):
        return []
    suffixes = frozenset(model.name_suffixes)
    names = [values.labels.get(dimension, {}).get(v) or v for v in said]
    if len({spelling_key(v, model.short_forms) for v in said}) == 1:
        return []  # 'Bluewater Analytics' and 'Blue Water Analytics': one thing typed two ways
    # a word for what the column's rows are ('MCDONNELL DOUGLAS AIRCRAFT CO' of the planes' maker) is left out as
    # a company's 'Co' is: it says what the maker makes, not which maker
    rows_words = {form for s in model.dimension_by_name[dimension].sources if s.table in model.table_by_name
                  for text in model.table_by_name[s.table].entity_words for form in noun_forms(text)}
    return names if len({base_name(n, suffixes | rows_words) for n in names}) > 1 else []


def _namesakes(values: ValueIndex, model: SemanticModel, dimension: str, said: list[str]) -> list[str]:
    """The things that share the one name said, each by its number ('artist 105', 'artist 120'), which
    the reader takes as that thing alone when the person picks it; [] when one thing has the name."""
    if len(said) != 1:
        return []
    holders = {s.table for s in model.dimension_by_name[dimension].sources if s.join is None}
    options: list[str] = []
    for table in sorted(holders):
        spec = model.table_by_name[table]
        if model.name_dimension(table) != dimension.rpartition("__")[2]:
            continue
        word = spec.entity_words[0] if spec.entity_words else table
        options += [f"{word} {key}" for key in values.namesakes.get(table, {}).get(said[0], [])]
    return options


def _the_one_said(state: State, mention: Mention, values: ValueIndex, model: SemanticModel, dimension: str,
                  candidates: list[tuple[str, str]]) -> list[str]:
    """'the chicago branch': one thing ('the', then its table's word in the singular) named by a value of
    another of its columns; the names of the things holding that value when several do, else []."""
    said = [v for d, v in candidates if d == dimension]
    thing = mention_at(state, mention.end)
    if len(said) != 1 or thing is None or thing.start != mention.end or not thing.has("entity") \
            or plural(state, thing) or not mention.start or state.tokens[mention.start - 1].low not in ("the", "our"):
        return []
    tables = {e.name for e in thing.of("entity")}
    if not any(s.table in tables and s.join is None for s in model.dimension_by_name[dimension].sources):
        return []
    return sorted(set(values.holders.get(dimension, {}).get(said[0], [])))


def _an_item(values: ValueIndex, dimension: str, value: str) -> bool:
    return value in values.items.get(dimension, ()) and value not in values.values.get(dimension, ())


def _listed_with(state: State, mention: Mention, placed: list[tuple[Mention, str]], dims: list[str],
                 links: set[str], model: SemanticModel) -> str | None:
    """'JFK and LGA', 'LGA vs JFK', 'LGA departures to JFK departures': a value listed with, or set
    against, a value whose dimension is known is a value of that dimension too (words that follow
    both values alike are no link)."""
    for other, dim in placed:
        first, second = (other, mention) if other.start < mention.start else (mention, other)
        between = [t.low for t in state.tokens[first.end:second.start]]
        after = [t.low for t in state.tokens[second.end:second.end + len(between)]]
        while between and after and between[0] == after[0]:
            between, after = between[1:], after[1:]
        if first is mention and len(between) == 1 and (between[0],) in phrased(model.dimension_by_name[dim].value_cues):
            # 'lga to atl': the word between is the second value's own cue ('to' for the destination), so the
            # first is the other end (the one other dimension that holds it), not a second destination
            others = [d for d in dims if d != dim]
            return others[0] if len(others) == 1 else None
        if dim in dims and between and set(between) <= links:
            return dim
    return None


def _passive_agent(state: State, value: Mention) -> None:
    """'planes made by Airbus': the verb before 'by' says how the value relates to the rows (its maker),
    so it is read with the value and is neither a measure nor a grouping of its own."""
    if value.start < 2 or state.tokens[value.start - 1].low != "by":
        return
    verb = mention_at(state, value.start - 2)
    if verb is None or verb.used or verb.end != value.start - 1 or verb.end - verb.start != 1:
        return
    word = state.tokens[verb.start].low
    forms = lemmas(word)
    if set(forms) == {"VERB"} and word not in forms["VERB"] and all(e.kind == "dimension" for e in verb.entries):
        verb.used = True


_CONTRASTS = {("vs",), ("versus",), ("v",), ("compared", "to"), ("compared", "with"), ("against",)}


def _compared_dimensions(state: State, placed: list[tuple[Mention, str]], beside: list[str]) -> list[str]:
    """'American vs Delta', 'compare JFK and LGA', 'by check vs by card': each value is wanted on its own row,
    which sets them 'side by side' (vocabulary shapes.side_by_side) as asked."""
    comparing = any(t.low in {"compare", "comparing", "comparison"} for t in state.tokens)
    # 'southwest flights per month out of ewr and lga': with the answer split already, each value is split too
    split = any(t.low in ("per", "by", "each") and i not in state.used_tokens for i, t in enumerate(state.tokens))
    compared: list[str] = []
    for (first, dim), (second, other) in zip(placed, placed[1:]):
        link = tuple(t.low for t in state.tokens[first.end:second.start])
        if link[:-1] in _CONTRASTS and link[-1] in state.function_words:
            link = link[:-1]  # 'by check vs by credit card': the second value's own introducing word
        if dim == other and (link in _CONTRASTS or ((comparing or split) and link in {("and",), ("with",)})):
            state.consume(*range(first.end, second.start))
            if dim not in compared:
                compared.append(dim)
    if compared:
        state.consume(*(i for i, t in enumerate(state.tokens) if t.low in {"compare", "comparing", "comparison"}))
        low = [t.low for t in state.tokens]
        for said in (text.lower().split() for text in beside):
            state.consume(*(j for i in range(len(low)) if low[i:i + len(said)] == said
                            for j in range(i, i + len(said))))
    return compared


def _value_cue_before(state: State, mention: Mention, entry: Entry, model: SemanticModel) -> bool:
    """A cue word of the dimension ('to den'), or its own name right before ('return flag R', 'status = F')."""
    dimension = model.dimension_by_name[entry.dimension_value[0]]
    if state.cue_before(mention.start, list(phrased(dimension.value_cues))) is not None:
        return True
    j = mention.start
    while j > 0 and state.tokens[j - 1].low in {"is", "=", "of", "was"}:
        j -= 1
    named = mention_at(state, j - 1) if j else None
    if named is not None and any(e.name == dimension.name for e in named.of("dimension")):
        return True
    if _set_against_its_like(state, mention, dimension.name):
        return True
    return _named_right_after(state, mention, [dimension.name]) is not None


_AGAINST = {"vs", "versus", "v"}


def _set_against_its_like(state: State, mention: Mention, dimension: str) -> bool:
    """'aa vs dl vs ua': codes set against each other with 'vs' are values of the one dimension they share,
    each the other's cue; the words that introduce each may be said again after 'vs' ('by check vs by
    credit card')."""
    def value_of(at: int | None) -> bool:
        other = mention_at(state, at) if at is not None and 0 <= at < len(state.tokens) else None
        return other is not None and any(e.dimension_value[0] == dimension for e in other.of("value"))

    def against_at(at: int) -> bool:
        return 0 <= at < len(state.tokens) and state.tokens[at].low in _AGAINST

    def introduced(at: int) -> bool:
        return 0 <= at < len(state.tokens) and state.tokens[at].low in state.function_words

    before = mention.start - 1
    if introduced(before) and against_at(before - 1):
        before -= 1  # 'cc vs by check': the word that introduces this value
    other = mention.end + 1
    if against_at(mention.end) and introduced(other):
        other += 1  # 'check vs by credit card': the other value's own introducing word
    return (against_at(before) and value_of(before - 1)) or (against_at(mention.end) and value_of(other))


def _named_right_after(state: State, mention: Mention, dims: list[str]) -> Mention | None:
    """The name of one of `dims` right after a value: 'low job satisfaction', 'high priority orders'
    (an adjective before the noun it qualifies)."""
    at = mention.end
    words = [t.low for t in state.tokens]
    # 'mushrooms in their ingredients', 'garlic in the toppings': the column the value is said to be in
    said_in = at + 1 < len(words) and words[at] in ("in", "among") and words[at + 1] in _POSSESSIVES
    if said_in:
        at += 2
    owned = not said_in and at < len(words) and words[at] == "'s"  # "a master's degree": Master, of education
    if owned:
        at += 1
    after = mention_at(state, at)
    # a word several of them are about ('low satisfaction': job or environment) does not tell which
    if after is None or after.start != at or after.used or len({e.name for e in after.of("dimension")} & set(dims)) != 1:
        return None
    if said_in:
        state.consume(mention.end, mention.end + 1)
    if owned:
        state.consume(mention.end)
    return after


_POSSESSIVES = {"the", "their", "its", "his", "her", "our", "your"}


def _value_dimension(state: State, mention: Mention, dims: list[str], model: SemanticModel,
                     thread_fields: list[str]) -> str | None:
    """A value both an origin and a destination: the word before it decides ('from', 'to');
    a dimension named just before or after it ('carrier B6') decides too; in a thread, the one the
    previous reading filters on (the earliest of them in the model's order when it filters on
    several: the reading line says which filter it replaced). Else None: nothing said decides."""
    if len(dims) == 1:
        return dims[0]
    before = mention_at(state, mention.start - 1)
    if before is not None:
        named = [e.name for e in before.of("dimension") if e.name in dims]
        if len(named) == 1:
            before.used = True
            return named[0]
    after = _named_right_after(state, mention, dims)
    if after is not None:
        return next(e.name for e in after.of("dimension") if e.name in dims)
    for dim in dims:
        cues = list(phrased(model.dimension_by_name[dim].value_cues))
        if cues and state.cue_before(mention.start, cues):
            return dim
    if (role := _role_noun_after(state, mention, dims, model)) is not None:
        return role
    in_thread = next((dim for dim in dims if dim in thread_fields), None)
    return in_thread or _of_the_things_said(state, dims, model) or _the_things_own_name(dims, model) \
        or _a_code_spelling_its_name(mention, dims, model)


def _role_noun_after(state: State, mention: Mention, dims: list[str], model: SemanticModel) -> str | None:
    """'LGA departures', 'JFK arrivals': a noun right after the value that only one of the dimensions'
    names says ('departure airport' for the origin, 'arrival airport' for the destination); words their
    names share ('airport') tell nothing."""
    if mention.end >= len(state.tokens):
        return None
    forms = noun_forms(state.tokens[mention.end].low)
    words = {dim: {w for text in (d.label, *d.synonyms) for w in text.lower().split()} - STOPWORDS
             for dim in dims if (d := model.dimension_by_name[dim])}
    said = [dim for dim, own in words.items()
            if forms & own and not any(forms & other for o, other in words.items() if o != dim)]
    return said[0] if len(said) == 1 else None


def _cued_elsewhere(state: State, mention: Mention, dims: list[str], model: SemanticModel) -> str | None:
    """The dimension a cue word right before a value names ('leaving' for the origin), when no dimension
    holding the value has that cue: the value is not one of that dimension's, whatever else it is."""
    for dim in model.dimensions:
        cues = list(phrased(dim.value_cues))
        said = state.cue_before(mention.start, cues) if dim.name not in dims and cues else None
        links = set(model.coverage.get("value_links", []))  # 'JFK departures to Newark departures': listed, no cue
        if said is None or (len(said) == 1 and said[0] in STOPWORDS
                            and (said[0] in links or not _same_things(dim, dims, model))):
            # only a cue of its own says it ('leaving'): 'to', 'on' say many things ('the ratio of A to B'), but
            # 'from BOS' where BOS is only ever a destination, of the same airports, asks the other role
            continue
        if not any(state.cue_before(mention.start, list(phrased(model.dimension_by_name[d].value_cues)))
                   for d in dims):
            return dim.name
    return None


def _same_things(dim: Dimension, dims: list[str], model: SemanticModel) -> bool:
    """Are the dimension's values the same things as those of one of `dims` (origin and destination: airports)?"""
    labels = dim.value_labels
    return labels is not None and any(
        (other := model.dimension_by_name[d].value_labels) is not None and (other.table, other.key) == (labels.table, labels.key)
        for d in dims)


def _of_the_things_said(state: State, dims: list[str], model: SemanticModel) -> str | None:
    """'how many loads were delivered': of a shipment's status and a tracking scan's code that both say
    'delivered', the column of the things the question names (the loads') is meant."""
    tables = {e.name for m in state.mentions for e in m.of("entity")}
    own = [d for d in dict.fromkeys(dims)
           if any(s.table in tables and s.join is None for s in model.dimension_by_name[d].sources)]
    return own[0] if len(own) == 1 else None


def _the_things_own_name(dims: list[str], model: SemanticModel) -> str | None:
    """'what showstoppers did Nadiya make': a value found only in names (baker name, first name, winner name,
    star baker names) names the thing whose own name column holds it; the others name it in a role."""
    names_word = {"name", "names"}
    if not all(model.dimension_by_name[d].label.lower().split()[-1] in names_word for d in dims):
        return None
    own = [d for d in dims if any(model.name_dimension(t.name) == d for t in model.tables)]
    return own[0] if len(own) == 1 else None


def _a_code_spelling_its_name(mention: Mention, dims: list[str], model: SemanticModel) -> str | None:
    """'corn' for a crop whose code is CORN and whose name is Corn: a code of a table's rows spelt as their
    name is the same thing either way, so the name is read; any other pair of columns is asked about."""
    if len(dims) != 2:
        return None
    said = {e.dimension_value[0]: e.dimension_value[1] for e in mention.of("value") if e.dimension_value}
    own = {d: {s.table for s in model.dimension_by_name[d].sources if s.join is None} for d in dims}
    names = [d for d in dims if any(model.name_dimension(t) == d for t in own[d])]
    spelt = {re.sub(r"[\W_]+", "", str(said.get(d, ""))).lower() for d in dims}
    if len(names) != 1 or len(spelt) != 1 or "" in spelt or not own[dims[0]] & own[dims[1]]:
        return None
    return names[0]


def _unknown_values(state: State, model: SemanticModel, values: ValueIndex) -> list[UnknownValue]:
    """Code-like words ('ZZ', 'XYZ') that match nothing are reported, never silently dropped."""
    understood = covered(state) | {i for m in state.mentions for i in range(m.start, m.end)}
    value_cues = list(phrased(c for d in model.dimensions if d.values for c in d.value_cues))
    unknown = []
    for index, token in enumerate(state.tokens):
        if index in understood or re.fullmatch(r"[QH][1-4]", token.text) or names_the_data(state, index, model.coverage) \
                or token.low in {n.lower() for n in model.data_names}:  # 'in our CRM': the data's own name (its schema)
            continue
        # a code ('ZZ') anywhere, or a name ('Dallas') right after 'from' / 'to'
        named = index > 0 and token.text[:1].isupper() and token.low not in state.function_words \
            and state.cue_before(index, value_cues) is not None
        if not (CODE_LIKE.fullmatch(token.text) or named):
            continue
        dim = None
        before = mention_at(state, index - 1)
        if before is not None:
            dim = next((e.name for e in before.of("dimension") if model.dimension_by_name[e.name].values), None)
            if dim is not None:
                before.used = True
        if dim is None:
            for candidate in (d for d in model.dimensions if d.values and d.value_cues):
                if state.cue_before(index, list(phrased(candidate.value_cues))):
                    dim = candidate.name
                    break
        suggestions = values.suggest(dim, token.text) if dim else []
        unknown.append(UnknownValue(text=token.text, dimension=dim, suggestions=suggestions))
    return unknown


def flags_pass(draft: Draft) -> Draft:
    draft.filters += read_flags(draft.state, draft.model.coverage.get("inclusive", []))
    state, model = draft.state, draft.model
    for flt, table in _stock_state(state, model):  # the rows counted are where the quantity is kept
        draft.filters.append(flt)
        pairs = {(a.low, b.low) for a, b in zip(state.tokens, state.tokens[1:])}
        if (count := model.table_by_name[table].count_metric) and COUNT_ASKS & pairs:
            draft.metric_choices.insert(0, [count])
    draft.filters += _flags_said_by_their_verb(state, model)
    for mention in state.mentions:  # 'how many leavers': the flagged rows counted, where the flag is
        if mention.has("flag") and state.words_before(mention.start, 2) in {("how", "many"), ("number", "of")}:
            tables = {s.table for e in mention.of("flag") for s in model.dimension_by_name[e.name].sources}
            counts = [count for t in sorted(tables) if (count := model.table_by_name[t].count_metric)]
            if counts:
                draft.metric_choices.append(counts)
                state.consume(mention.start - 2, mention.start - 1)
    return draft


def _stock_state(state: State, model: SemanticModel) -> list[tuple[Filter, str]]:
    """'how many bikes are out of stock': the quantity kept on the one table the words name ('stock': the
    stocks table's quantity) is 0; 'in stock': above 0; with the table. Where no such column is, or several,
    the words stay unread and are asked about."""
    found: list[tuple[Filter, str]] = []
    for shape, op in (("none_left", "="), ("some_left", ">")):
        said = list(phrased(model.shapes.get(shape, [])))
        for i in range(len(state.tokens)):
            words = next((w for w in sorted(said, key=len, reverse=True)
                          if tuple(t.low for t in state.tokens[i:i + len(w)]) == w), None)
            if words is None:
                continue
            kept = [(d.name, s.table) for d in model.dimensions if d.kind == "numeric"
                    and d.label.lower().split()[-1:] in (["quantity"], ["qty"]) for s in d.sources if s.join is None]
            named = [(name, table) for name, table in kept if any(
                w in {form for e in model.table_by_name[table].entity_words for form in noun_forms(e.split()[-1])}
                for w in words)]
            kept = named or kept
            if len(kept) == 1:
                found.append((Filter(field=kept[0][0], op=op, values=[0]), kept[0][1]))
                consume_with_mentions(state, list(range(i, i + len(words))))
            break
    return found


# the object a flag's verb may leave unsaid is a determined thing ('left the company'); a bare word after the
# verb is what the flag is about ('work overtime': 'work' alone is not overtime)
_DETERMINERS = {"the", "a", "an", "their", "his", "her", "its", "our", "your", "my"}


def _flags_said_by_their_verb(state: State, model: SemanticModel) -> list[Filter]:
    """'employees who left', 'how many employees left': a flag told as a verb and its object ('left the
    company') said by the verb alone right after its rows, when one flag of those rows is told so."""
    found = []
    for i, token in enumerate(state.tokens):
        if i == 0 or i in state.used_tokens or mention_at(state, i) is not None:
            continue
        verbs = set(lemmas(token.low).get("VERB", ()))
        said_after = mention_at(state, i + 1) if i + 1 < len(state.tokens) else None
        if not verbs or said_after is not None:
            continue  # 'who work overtime': the flag is said in full, read by its own words
        j = i - 1 if state.tokens[i - 1].low not in ("who", "that", "which") else i - 2
        rows = mention_at(state, j) if j >= 0 else None
        if rows is None or not rows.has("entity"):
            continue
        tables = {e.name for e in rows.of("entity")}
        flags = {d.name for d in model.dimensions if d.kind == "flag" and {s.table for s in d.sources} & tables
                 and any(len(said.split()) > 1 and said.split()[1] in _DETERMINERS
                         and verbs & set(lemmas(said.split()[0]).get("VERB", ())) for said in d.related)}
        if len(flags) == 1:
            state.consume(i, *([i - 1] if j == i - 2 else []))
            flag, value = flags.pop(), not is_negated(state, i)
            found.append(Filter(field=flag, values=[value]))
            state.positions.setdefault((flag, str(value)), i)  # where it was said, for shapes
    return found


def values_pass(draft: Draft) -> Draft:
    filters, unknown, compared, ambiguous = read_values(draft.state, draft.model, draft.values, draft.thread_fields)
    draft.filters += _each_of_both(filters, draft.state, draft.model)
    draft.unknown += unknown
    draft.compared += compared
    draft.ambiguous += ambiguous
    return draft


def _each_of_both(filters: list[Filter], state: State, model: SemanticModel) -> list[Filter]:
    """'movies that are both Action and Comedy': two tags of a link table (a thing has several) each
    required, not either; a column with one value per row cannot hold both, so 'both' stays unread there."""
    words = [t.low for t in state.tokens]
    if "both" not in words:
        return filters
    at = words.index("both")
    out: list[Filter] = []
    for flt in filters:
        dim = model.dimension_by_name.get(flt.field.rsplit("__", 1)[-1])
        tags = dim is not None and any(model.table_by_name[s.table].bridge for s in dim.sources
                                       if s.table in model.table_by_name)
        said_after = min((state.positions.get((flt.field, str(v)), -1) for v in flt.values), default=-1) == at + 1
        if tags and flt.op == "in" and len(flt.values) == 2 and said_after:
            out += [Filter(field=flt.field, values=[value]) for value in flt.values]
            state.consume(at)
        else:
            out.append(flt)
    return out
